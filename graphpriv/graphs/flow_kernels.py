"""Compiled minimum s--t cuts for the many small cut problems of the principal sequence of partitions:
preflow-push (Goldberg & Tarjan 1988; used) and Dinic's algorithm (Dinic 1970; a cross-check). Each
Dilworth-truncation step solves one s--t cut on a network of a few hundred to a few thousand arcs;
building an igraph or scipy graph for each of them costs more than the flow itself, so the network is
passed as four flat arrays and solved in place. numba compiles them once per machine (``cache=True``)."""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["dinic_cut", "push_relabel_cut"]


@numba.njit(cache=True, nogil=True)
def dinic_cut(n, eu, ev, cf, cb, s, t):
    """Maximum s--t flow and a minimum cut (Dinic 1970, blocking flows on BFS level graphs).

    The network has ``n`` nodes and one pair of opposite arcs per entry ``j``: ``eu[j] -> ev[j]`` with
    capacity ``cf[j]`` and ``ev[j] -> eu[j]`` with capacity ``cb[j]`` (an undirected edge of weight c is
    ``cf = cb = c``). Integer capacities; the arithmetic is exact.

    Returns ``(value, mask)``: the flow value and the source side of a minimum cut, the nodes reachable
    from ``s`` in the final residual network (the inclusion-minimal minimum cut).

    Each phase's breadth-first search stops at the level of ``t``, so when ``t`` is near ``s`` (in the
    Dilworth-truncation networks most nodes have an arc to ``t``) a phase only touches the neighbourhood
    of ``s``, and so does the final search for the cut.
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
            if level[t] >= 0 and level[u] >= level[t]:
                break                            # the level graph ends at t: nodes past it are never used
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


@numba.njit(cache=True, nogil=True)
def _sink_distances(n, start, adj, head, res, t, dist, queue):
    """Exact distances to ``t`` in the residual network (reverse breadth-first search); ``n`` where ``t`` is
    out of reach. Returns the number of nodes reached."""
    for u in range(n):
        dist[u] = n
    dist[t] = 0
    qh = 0
    qt = 1
    queue[0] = t
    while qh < qt:
        u = queue[qh]
        qh += 1
        for k in range(start[u], start[u + 1]):
            b = adj[k]
            w = head[b]
            if dist[w] == n and res[b ^ 1] > 0:
                dist[w] = dist[u] + 1
                queue[qt] = w
                qt += 1
    return qt


@numba.njit(cache=True, nogil=True)
def push_relabel_cut(n, eu, ev, cf, cb, s, t):
    """Minimum s--t cut by the preflow-push algorithm (Goldberg & Tarjan 1988), first phase, FIFO order with
    global relabelling.

    Same network and return value as :func:`dinic_cut`, except that ``mask`` is the *inclusion-maximal*
    source side (the nodes that cannot reach ``t`` in the residual network once no active node can send
    flow on). When supply spread over many nodes must travel far to ``t`` (a long band of nodes), it
    moves all of it in waves, where Dinic's algorithm needs one phase per path length.
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
    h = np.empty(n, np.int64)
    excess = np.zeros(n, np.int64)
    cur = start[:n].copy()
    queue = np.empty(n, np.int64)
    active = np.empty(n + 1, np.int64)         # FIFO ring of active nodes
    inq = np.zeros(n, np.bool_)
    _sink_distances(n, start, adj, head, res, t, h, queue)
    h[s] = n
    qh = 0
    qt = 0
    size = n + 1
    for k in range(start[s], start[s + 1]):
        a = adj[k]
        c = res[a]
        v = head[a]
        if c > 0 and v != s:
            res[a] = 0
            res[a ^ 1] += c
            excess[v] += c
            if v != t and not inq[v] and h[v] < n:
                inq[v] = True
                active[qt] = v
                qt = (qt + 1) % size
    relabels = 0
    while qh != qt:
        u = active[qh]
        qh = (qh + 1) % size
        inq[u] = False
        if h[u] >= n or excess[u] == 0:
            continue
        while excess[u] > 0:
            if cur[u] == start[u + 1]:
                low = 2 * n
                for k in range(start[u], start[u + 1]):
                    a = adj[k]
                    if res[a] > 0 and h[head[a]] + 1 < low:
                        low = h[head[a]] + 1
                h[u] = low if low < n else n
                cur[u] = start[u]
                relabels += 1
                if h[u] >= n:
                    break
                continue
            a = adj[cur[u]]
            v = head[a]
            if res[a] > 0 and h[u] == h[v] + 1:
                d = excess[u] if excess[u] < res[a] else res[a]
                res[a] -= d
                res[a ^ 1] += d
                excess[u] -= d
                excess[v] += d
                if v != t and v != s and not inq[v] and h[v] < n:
                    inq[v] = True
                    active[qt] = v
                    qt = (qt + 1) % size
            else:
                cur[u] += 1
        if relabels >= n:                       # global relabel: exact distances to t again
            relabels = 0
            _sink_distances(n, start, adj, head, res, t, h, queue)
            h[s] = n
            for v in range(n):
                cur[v] = start[v]
            if excess[u] > 0 and h[u] < n and not inq[u]:
                inq[u] = True
                active[qt] = u
                qt = (qt + 1) % size
            for v in range(n):                   # nodes that got closer to t may have been dropped: requeue them
                if excess[v] > 0 and v != t and v != s and h[v] < n and not inq[v]:
                    inq[v] = True
                    active[qt] = v
                    qt = (qt + 1) % size
    _sink_distances(n, start, adj, head, res, t, h, queue)
    mask = np.zeros(n, np.bool_)
    for u in range(n):
        mask[u] = h[u] >= n
    return excess[t], mask
