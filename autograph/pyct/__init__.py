"""pyct: Python code tools for the converter: parse, analyze, template, load."""
