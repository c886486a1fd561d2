"""One step of k-means: assign each point to its nearest centroid, then move the centroids."""
import numpy as np


def kmeans_step(X, centroids):
    n = X.shape[0]
    k = centroids.shape[0]
    labels = np.zeros(n, dtype=np.int64)
    for i in range(n):
        d = ((centroids - X[i]) ** 2).sum(axis=1)
        labels[i] = np.argmin(d)
    new_centroids = np.zeros_like(centroids)
    for j in range(k):
        members = labels == j
        count = members.sum()
        if count > 0:
            new_centroids[j] = (X * members[:, None]).sum(axis=0) / count
        else:
            new_centroids[j] = centroids[j]
    return new_centroids, labels


def inertia(X, centroids):
    """The k-means objective by a loop over points, with the nearest distance by np.min."""
    total = 0.0
    for x in X:
        total += np.min(((centroids - x) ** 2).sum(axis=1))
    return total


_X = np.array([[0.0, 0.0], [0.1, 0.2], [5.0, 5.0], [5.2, 4.9], [0.3, -0.1]])

CASES = [
    (kmeans_step, [(_X, np.array([[0.0, 0.0], [5.0, 5.0]])),
                   (_X, np.array([[10.0, 10.0], [-9.0, -9.0]]))]),
    (inertia, [(_X, np.array([[0.0, 0.0], [5.0, 5.0]])),
               (_X, np.array([[1.0, 1.0], [4.0, 4.0]]))]),
]
GRAD = {"inertia": (0, 1)}
