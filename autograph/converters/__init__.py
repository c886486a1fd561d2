"""One converter per Python construct; `autograph.pipeline` runs them in order."""
