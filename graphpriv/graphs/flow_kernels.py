"""Compiled maximum flow (Dinic's algorithm) for the many small s--t cuts of the principal sequence of
partitions. Each Dilworth-truncation step solves one s--t cut on a network of a few hundred to a few
thousand arcs; building an igraph or scipy graph for each of them costs more than the flow itself, so
the network is passed as four flat arrays and solved in place. numba compiles it once per machine
(``cache=True``)."""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["dinic_cut"]


@numba.njit(cache=True, nogil=True)
def dinic_cut(n, eu, ev, cf, cb, s, t):
    """Maximum s--t flow and a minimum cut (Dinic 1970, blocking flows on BFS level graphs).

    The network has ``n`` nodes and one pair of opposite arcs per entry ``j``: ``eu[j] -> ev[j]`` with
    capacity ``cf[j]`` and ``ev[j] -> eu[j]`` with capacity ``cb[j]`` (an undirected edge of weight c is
    ``cf = cb = c``). Integer capacities; the arithmetic is exact.

    Returns ``(value, mask)``: the flow value and the source side of a minimum cut, the nodes reachable
    from ``s`` in the final residual network (the inclusion-minimal minimum cut).
    """
    m = len(eu)
    na = 2 * m
    head = np.empty(na, np.int64)
    res = np.empty(na, np.int64)
    start = np.zeros(n + 1, np.int64)
    for j in range(m):
        start[eu[j] + 1] += 1
        start[ev[j] + 1] += 1
    for u in range(n):
        start[u + 1] += start[u]
    pos = start[:n].copy()
    adj = np.empty(na, np.int64)
    for j in range(m):
        a = 2 * j
        head[a] = ev[j]
        res[a] = cf[j]
        head[a + 1] = eu[j]
        res[a + 1] = cb[j]
        adj[pos[eu[j]]] = a
        pos[eu[j]] += 1
        adj[pos[ev[j]]] = a + 1
        pos[ev[j]] += 1
    level = np.empty(n, np.int64)
    it = np.empty(n, np.int64)
    queue = np.empty(n, np.int64)
    path = np.empty(n, np.int64)
    flow = 0
    while True:
        level[:] = -1
        level[s] = 0
        qh = 0
        qt = 1
        queue[0] = s
        while qh < qt:
            u = queue[qh]
            qh += 1
            for k in range(start[u], start[u + 1]):
                a = adj[k]
                if res[a] > 0 and level[head[a]] < 0:
                    level[head[a]] = level[u] + 1
                    queue[qt] = head[a]
                    qt += 1
        if level[t] < 0:
            break
        for u in range(n):
            it[u] = start[u]
        depth = 0
        u = s
        while True:
            if u == t:
                f = res[path[0]]
                for d in range(1, depth):
                    if res[path[d]] < f:
                        f = res[path[d]]
                for d in range(depth):
                    res[path[d]] -= f
                    res[path[d] ^ 1] += f
                flow += f
                depth = 0
                u = s
                continue
            advanced = False
            while it[u] < start[u + 1]:
                a = adj[it[u]]
                v = head[a]
                if res[a] > 0 and level[v] == level[u] + 1:
                    path[depth] = a
                    depth += 1
                    u = v
                    advanced = True
                    break
                it[u] += 1
            if not advanced:
                level[u] = -1                    # dead end: never enter u again in this phase
                if depth == 0:
                    break
                depth -= 1
                u = head[path[depth] ^ 1]
                it[u] += 1
    mask = np.zeros(n, np.bool_)
    mask[s] = True
    qh = 0
    qt = 1
    queue[0] = s
    while qh < qt:
        u = queue[qh]
        qh += 1
        for k in range(start[u], start[u + 1]):
            a = adj[k]
            if res[a] > 0 and not mask[head[a]]:
                mask[head[a]] = True
                queue[qt] = head[a]
                qt += 1
    return flow, mask
