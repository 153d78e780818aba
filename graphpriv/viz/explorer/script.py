"""The explorer page's script: cuts the merge hierarchy at step t in the browser and draws every view.

:data:`PAGE_JS` defines ``gpxMake(A)``, run once when the page is ready (``window.__gpx``): ``A`` holds the
payload of :func:`graphpriv.viz.explorer.explorer_data` and the bokeh models to fill. At step t it takes the
clusters of Q(t) from the linkage rows (:func:`graphpriv.viz.explorer.explorer_cut` is the same rule in Python),
their sensitive sets from the pairs of [[S, X]], and draws the matrix at the resolution of the visible
range (columns of leaves and rows of sensitive values binned to the plot's pixels: a cell shows the
strongest of its pairs, original over quantised over band shade), the hierarchy as one segment glyph set
(three segments per link) with collapsed subtrees drawn as single bands, the tick labels and pair numbers
where there is room, and keeps the step and zoom in the URL fragment (``#t=5&x0=..&x1=..``).
"""

__all__ = ["PAGE_JS", "CUT_JS"]

#: The cut of the hierarchy at step t, alone (the page's rule; tests run it under node where available).
CUT_JS = r"""
function gpxCut(n, parent, lo, hi, m) {
  const topAt = new Int32Array(n).fill(-1);
  for (let v = 0; v < n + m; v++) {
    const p = parent[v];
    if (p < 0 || p - n >= m) topAt[lo[v]] = v;
  }
  const out = [];
  let i = 0;
  while (i < n) {
    const v = topAt[i];
    out.push([i, hi[v], v]);
    i = hi[v] + 1;
  }
  return out;
}
"""

PAGE_JS = CUT_JS + r"""
function gpxMake(A) {
  const D = A.D, meta = D.meta, tree = D.tree, n = meta.n_public, T = meta.n_steps, R = D.rows.length;
  const lo = tree.lo, hi = tree.hi, parent = tree.parent, ends = tree.ends, H = tree.height, X = tree.x;
  const LEFT = tree.left, RIGHT = tree.right;
  const ptr = D.pairs.ptr, prow = D.pairs.row, comp = D.leaves.comp, labels = D.leaves.label;
  const rank = D.leaves.rank || labels.map((_, i) => i);
  const MERGE = meta.merge_color;
  const S = A.src;
  const st = {t: 0, collapsed: new Set(), bands: null, hover: -1, pending: false, badges: [0, 0]};
  const stamp = new Int32Array(Math.max(R, 1)).fill(-1);
  let gen = 0;

  function clampT(t) {
    t = Math.round(Number(t));
    if (!isFinite(t)) t = 0;
    return Math.max(0, Math.min(T - 1, t));
  }
  function nodeH(v) { return v < n ? 0 : H[v - n]; }
  function nrows(t) { return n > 1 ? ends[t] : 0; }
  // The clusters of Q(t): nodes whose own row is among the first ends[t] rows (or leaves) and whose
  // parent's row is not; each covers the leaf run lo..hi.
  function cut(t) { return gpxCut(n, parent, lo, hi, nrows(t)); }

  // at most k characters: whole words from the start and " …" (a number, or a single word, as elide() in Python:
  // a number is never cut; a word too long keeps its first characters)
  function isNum(s) { return /^[-+−]?\(?[0-9][0-9,.]*\)?%?$/.test(s); }
  function elide(s, k) {
    s = String(s);
    if (s.length <= k) return s;
    const parts = s.split(/(,\s*|\s+|–)/);
    let head = "";
    for (let i = 0; i + 2 < parts.length; i += 2) {
      const cand = parts.slice(0, i + 1).join("") + (parts[i + 1].trim() === "–" ? "–…" : " …");
      if (cand.length <= k && !parts[i].endsWith("…")) head = cand;
    }
    if (head) return head;
    if (isNum(parts[0])) return parts[0] === s ? s : parts[0] + " …";
    return parts[0].slice(0, Math.max(1, k - 1)) + "…";
  }
  function listText(items, k) {
    if (items.length <= k) return items.join(", ");
    return items.slice(0, k).join(", ") + ", …";
  }

  function bandInfo(t) {
    const c = cut(t), s = D.steps[t], r0 = s.r0, r1 = s.r1;
    const B = {lo: [], hi: [], node: [], sens: [], numbers: [], merged: []};
    const bandOf = new Int32Array(Math.max(n, 1));
    c.forEach(([a, b, v], k) => {
      gen += 1;
      const rows = [];
      for (let p = a; p <= b; p++) {
        bandOf[p] = k;
        for (let q = ptr[p]; q < ptr[p + 1]; q++) {
          const r = prow[q];
          if (stamp[r] !== gen) { stamp[r] = gen; rows.push(r); }
        }
      }
      rows.sort((x, y) => x - y);
      B.lo.push(a); B.hi.push(b); B.node.push(v); B.sens.push(rows); B.numbers.push([]);
      B.merged.push(meta.kind !== "components" && v >= n && v - n >= r0 && v - n < r1);
    });
    if (meta.kind !== "components") {
      for (let i = r0; i < r1; i++) B.numbers[bandOf[lo[n + i]]].push(i - r0 + 1);
    }
    B.bandOf = bandOf;
    return B;
  }

  // a cluster's members in label order (numbers numerically): its smallest and largest value are its ends,
  // whatever the order of its leaves under the tree
  function extremes(a, b) {
    let lo = a, hi = a;
    for (let p = a + 1; p <= b; p++) { if (rank[p] < rank[lo]) lo = p; if (rank[p] > rank[hi]) hi = p; }
    return [lo, hi];
  }
  function bandLabel(a, b) {
    const k = b - a + 1;
    if (k === 1) return labels[a];
    if (k <= 3) {
      const ps = [];
      for (let p = a; p <= b; p++) ps.push(p);
      return ps.sort((u, v) => rank[u] - rank[v]).map((p) => labels[p]).join(", ");
    }
    const [l, h] = extremes(a, b);
    return labels[l] + " … " + labels[h] + " (" + k + ")";
  }
  // a tick label of at most K characters that keeps the smallest value (whole words) and the count
  function tickLabel(a, b, K) {
    const full = bandLabel(a, b), k = b - a + 1;
    if (full.length <= K) return full;
    if (k === 1) return elide(full, K);
    const count = " (" + k + ")", room = Math.max(3, K - count.length - 2);
    const first = labels[extremes(a, b)[0]];
    return (first.length <= room ? first + " …" : elide(first, room + 2)) + count;
  }

  // ---------------------------------------------------------------- hierarchy
  function segs(rowsIter, out) {
    for (const i of rowsIter) {
      const a = LEFT[i], b = RIGHT[i], h = H[i], xa = X[a], xb = X[b];
      out.x0.push(xa, xa, xb); out.y0.push(nodeH(a), h, h);
      out.x1.push(xa, xb, xb); out.y1.push(h, h, nodeH(b));
      out.row.push(i, i, i);
      if (out.c) { const col = tree.color[i]; out.c.push(col, col, col); }
    }
    return out;
  }
  function* range(a, b) { for (let i = a; i < b; i++) yield i; }
  const MIN_PX = A.min_px;
  // node v is drawn at pixels per leaf pxu when its subtree spans at least MIN_PX pixels
  function resolved(v, pxu) { return (hi[v] - lo[v] + 1) * pxu >= MIN_PX; }
  function pxuNow() { return A.frame_w / Math.max(1e-9, A.xr.end - A.xr.start); }
  function* resolvedRows(rowsIter) { const p = pxuNow(); for (const i of rowsIter) if (resolved(n + i, p)) yield i; }
  function drawLinks() {
    // a link is hidden when its node is folded or lies under a folded node: one pass from the root down
    // (a parent's row comes after its children's)
    const under = new Uint8Array(Math.max(2 * n - 1, 1));
    const tops = [];
    for (let v = 2 * n - 2; v >= n; v--) {
      const p = parent[v];
      under[v] = p >= 0 && (under[p] || st.collapsed.has(p)) ? 1 : 0;
      if (st.collapsed.has(v) && !under[v]) tops.push(v);
    }
    // the joins that only complete the tree (at the completing height) carry no merge: not drawn
    // and, at the resolution of the visible range, a link whose subtree spans fewer than MIN_PX pixels is
    // not drawn (its parent's leg ends at its height): with more leaves than pixels the hierarchy shows
    // its upper part only, and zooming in reveals the rest
    const pxu = A.frame_w / Math.max(1e-9, A.xr.end - A.xr.start);
    const rows = [];
    for (let i = 0; i < n - 1; i++) {
      if (!under[n + i] && !st.collapsed.has(n + i) && H[i] < tree.completing && resolved(n + i, pxu)) rows.push(i);
    }
    S.links.data = segs(rows, {x0: [], y0: [], x1: [], y1: [], row: [], c: []});
    st.drawnPxu = pxu;
    const f = {xs: [], ys: [], node: [], text: [], tx: [], ty: []};
    for (const v of tops) {  // a band labelled with its number of values where the label fits
      const k = hi[v] - lo[v] + 1, text = String(k);
      f.xs.push([lo[v] - 0.45, X[v], hi[v] + 0.45]); f.ys.push([0, nodeH(v), 0]);
      f.node.push(v); f.text.push(k * pxu >= 6 * text.length + 4 ? text : ""); f.tx.push(X[v]); f.ty.push(nodeH(v) * 0.3);
    }
    S.folds.data = f;
  }
  function collapse(v) {
    if (v < n) return;
    if (st.collapsed.has(v)) st.collapsed.delete(v); else st.collapsed.add(v);
    drawLinks();
  }

  // ---------------------------------------------------------------- matrix, ticks, badges (visible range)
  function visible() {
    const a = Math.max(0, Math.floor(A.xr.start + 0.5)), b = Math.min(n - 1, Math.ceil(A.xr.end - 0.5));
    return [Math.min(a, n - 1), Math.max(Math.min(a, n - 1), b)];
  }
  function makeImage(flat, h, w) {
    const proto = A.proto_image;
    if (proto && proto.shape && proto.constructor !== Array) return new proto.constructor(flat, [h, w]);
    return Bokeh.require("core/util/ndarray").ndarray(flat, {dtype: "uint8", shape: [h, w]});
  }
  function drawMatrix() {
    const B = st.bands;
    if (!B || n === 0) return;
    const [a, b] = visible();
    const span = b - a + 1;
    const cols = Math.max(1, Math.min(span, A.frame_w));
    const rb = Math.max(1, Math.min(R, A.frame_h));
    const colOf = (p) => Math.min(cols - 1, Math.floor((p - a) * cols / span));
    const rowOf = (r) => Math.min(rb - 1, Math.floor(r * rb / R));
    const cat = new Uint8Array(rb * cols), cc = new Uint8Array(rb * cols);
    const k0 = B.bandOf[a], k1 = B.bandOf[b];
    for (let k = k0; k <= k1; k++) {
      const c0 = colOf(Math.max(B.lo[k], a)), c1 = colOf(Math.min(B.hi[k], b));
      if (k % 2 === 1) for (let r = 0; r < rb; r++) for (let c = c0; c <= c1; c++) { const j = r * cols + c; if (cat[j] < 1) cat[j] = 1; }
      const col = comp[Math.max(B.lo[k], a)];
      for (const s of B.sens[k]) {
        const r = rowOf(s);
        for (let c = c0; c <= c1; c++) { const j = r * cols + c; if (cat[j] < 2) { cat[j] = 2; cc[j] = col; } }
      }
    }
    for (let p = a; p <= b; p++) {
      const c = colOf(p);
      for (let q = ptr[p]; q < ptr[p + 1]; q++) { const j = rowOf(prow[q]) * cols + c; cat[j] = 3; cc[j] = comp[p]; }
    }
    const flat = new Uint8Array(rb * cols);
    for (let j = 0; j < flat.length; j++) flat[j] = cat[j] < 2 ? cat[j] : 2 + 2 * cc[j] + (cat[j] === 2 ? 1 : 0);
    S.image.data = {image: [makeImage(flat, rb, cols)], x: [a - 0.5], y: [-0.5], dw: [span], dh: [R]};
    drawTicks(a, b);
  }
  function drawTicks(a, b) {
    const B = st.bands, pxu = A.frame_w / Math.max(1e-9, A.xr.end - A.xr.start);
    const k0 = B.bandOf[a], k1 = B.bandOf[b];
    const order = [];
    for (let k = k0; k <= k1; k++) order.push(k);
    order.sort((u, v) => (B.merged[v] - B.merged[u]) || (u - v));
    const placed = [], keep = [];
    const edge = 6 / pxu;   // a label (rotated text, ~10 px high) whose centre is this close to the frame's edge is cut
    for (const k of order) {
      const mid = (B.lo[k] + B.hi[k]) / 2;
      if (mid < A.xr.start + edge || mid > A.xr.end - edge) continue;   // a band only partly in view: no tick
      const x = mid * pxu;
      let ok = true;
      for (const p of placed) if (Math.abs(x - p) < 13) { ok = false; break; }
      if (ok) { placed.push(x); keep.push(k); if (keep.length >= 400) break; }
    }
    const tk = {x: [], text: [], col: []};
    for (const k of keep) {
      tk.x.push((B.lo[k] + B.hi[k]) / 2); tk.text.push(tickLabel(B.lo[k], B.hi[k], A.tick_chars));
      tk.col.push(B.merged[k] ? MERGE : "#303030");
    }
    S.ticks.data = tk;
    // pair numbers of the clusters merged at t, where there is room (zoom in for more)
    const bd = {x: [], y: [], text: []};
    let shown = 0, total = 0;
    if (D.steps[st.t].n_pairs > 1) {
      let right = -Infinity;
      for (let k = k0; k <= k1; k++) {
        const nums = B.numbers[k];
        if (!nums.length) continue;
        total += nums.length;
        const text = nums.length > 2 ? nums[0] + "," + nums[1] + ",+" + (nums.length - 2) : nums.join(",");  // pair_badge_text
        const w = 6.2 * text.length + 6, x = (B.lo[k] + B.hi[k]) / 2 * pxu;
        if (x - w / 2 >= right + 2) { bd.x.push((B.lo[k] + B.hi[k]) / 2); bd.y.push(A.badge_y); bd.text.push(text); right = x + w / 2; shown += nums.length; }
      }
    }
    st.badges = [shown, total];
    S.badges.data = bd;
    A.badge_note.text = total > shown ? '<span style="font-size:11px;color:#606060">pair numbers: ' + shown + " of " + total +
      " shown (zoom in for the rest)</span>" : "";
  }
  function scheduleView() {
    if (st.pending) return;
    st.pending = true;
    requestAnimationFrame(() => {
      st.pending = false; drawMatrix();
      if (st.collapsed.size || pxuNow() !== st.drawnPxu) { drawLinks(); drawHighlight(); drawMarks(); if (st.hover >= 0) highlight(st.hover); }
      writeHash();
    });
  }

  // ---------------------------------------------------------------- one step
  function fmt(v, d) {
    if (v === null || v === undefined || Number.isNaN(v)) return "—";
    if (Math.abs(v) >= 1e300) return v > 0 ? "∞" : "−∞";
    return String(Number(Number(v).toPrecision(d)));
  }
  function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }

  function setStep(t) {
    t = clampT(t);
    st.t = t;
    const s = D.steps[t];
    const B = st.bands = bandInfo(t);
    const K = B.lo.length;
    const bars = {x: [], w: [], top: [], col: [], label: [], n: [], members: [], sens: [], anon: [], merged: [], y: [], h: []};
    const mk = {x: [], y: [], col: []};
    for (let k = 0; k < K; k++) {
      const a = B.lo[k], b = B.hi[k], v = B.node[k], size = b - a + 1, ns = B.sens[k].length;
      bars.x.push((a + b) / 2); bars.w.push(size - 0.1); bars.top.push(ns);
      bars.col.push(B.merged[k] ? MERGE : "#8c8c8c");
      bars.label.push(bandLabel(a, b)); bars.n.push(size);
      bars.members.push(listText(labels.slice(a, Math.min(b + 1, a + 41)), 40));
      bars.sens.push(listText(B.sens[k].slice(0, 41).map((r) => D.rows[r]), 40));
      bars.anon.push(ns);
      const nums = B.numbers[k];
      bars.merged.push(nums.length ? "merged at t = " + t + " (pair " + nums.slice(0, 8).join(", ") + (nums.length > 8 ? ", …" : "") + ")" : "");
      bars.y.push((R - 1) / 2); bars.h.push(R);
      mk.x.push(X[v]); mk.y.push(t + 0.5); mk.col.push(B.merged[k] ? MERGE : "#505050");
    }
    S.bands.data = bars;
    // a mark on the cut for every cluster of two or more values (a single value has no link to mark)
    // (drawn where its subtree is resolved at the current zoom, as the links)
    st.markCols = Object.assign({}, bars, mk);
    drawMarks();
    let ymax = 1;
    for (const v of bars.top) if (v > ymax) ymax = v;
    A.strip_y.end = ymax * 1.15;
    drawHighlight();
    A.cut.location = t + 0.5;
    for (const m of A.tlines) m.location = t;
    const pv = (k) => { const a = (A.PS && A.PS[k]) || D.series[k]; return a ? a[t] : null; };   // as plotted (±∞ capped)
    S.cur.data = {t: [t], L: [pv("L")], privacy: [pv("privacy")], utility: [pv("utility")], criterion: [pv("criterion")]};
    const badge = s.status === "released" ? ' — <b style="color:' + meta.release_color + '">released</b>'
      : s.status === "rejected" ? ' — <b style="color:#D55E00">rejected</b> (ΔL ≥ 0: the mechanism stopped)' : "";
    A.title.text = '<div style="font-size:17px">' + esc(s.title.split(" — ")[0]) + badge + "</div>" +
      '<div style="font-size:13px">' + (meta.criterion ? "" : "L(t) = " + fmt(s.L, 6) + ", ΔL = " + fmt(s.delta_L, 4) + ", ") +
      esc(meta.privacy_label || "privacy") + " = " + fmt(s.privacy, 4) + ", " + esc(meta.utility_label || "utility") + " = " +
      fmt(s.utility, 4) + ", |Q(t)| = " + s.n_clusters + ", components = " + s.n_components + "</div>";
    const c = s.candidates;
    let crit;
    if (s.why) {   // the mechanism's own criterion at this step, in its words
      crit = "Why this step: " + s.why;
    } else if (meta.kind === "components") {
      crit = "Each band of the matrix is one component of G_X (values joined when they share a sensitive value; I* = log2 of their number). Hover a band for its values and sensitive set.";
    } else if (!c.criterion) {
      crit = c.note ? "Candidates: " + c.note + "." : "";
    } else {
      crit = "Ranked by " + c.criterion + ": the mechanism's own rule (first column); ΔL of each merge alone for comparison. " +
        c.n.toLocaleString("en") + " candidate pairs" + (c.n_pairs > 1 ? " for pair 1; " + c.n_ranked + " of the " + c.n_pairs + " pairs of this sweep ranked, each on the clusters left by the earlier pairs" : "") + "." +
        (c.note ? " " + c.note + "." : "");
    }
    A.ranking.text = '<div style="font-size:12px;color:#404040;max-width:' + A.width + 'px">' + esc(crit) + "</div>";
    A.caption.text = meta.kind === "components" ? "" :
      '<div style="font-size:13px"><b>merged at t = ' + t + ":</b> " + (s.caption ? esc(s.caption) : t ? "nothing" : "nothing (initial state)") + "</div>";
    const rows = c.rows;
    A.table_src.data = {
      cost: rows.map((r) => fmt(r.cost, 6)),
      rank: rows.map((r) => r.chosen ? (r.rank || "–") + " ✔ chosen" : String(r.rank)),
      pair: rows.map((r) => "{" + r.a_label + "} + {" + r.b_label + "}"),
      dl: rows.map((r) => fmt(r.delta_L, 4)),
      number: rows.map((r) => String(r.pair)),
    };
    // bokeh's DataTable redraws when its view's row indices change: a step with as many candidate rows as the
    // last one kept the last one's rows on screen, so the redraw is asked for
    A.table_src.change.emit();
    if (A.table.view && A.table.view.change) A.table.view.change.emit();
    const tv = typeof Bokeh !== "undefined" && Bokeh.index ? Bokeh.index.find_one(A.table) : null;
    if (tv && tv.updateGrid) tv.updateGrid();
    if (A.slider.value !== t) A.slider.value = t;
    highlight(-1);
    drawMatrix();
    writeHash();
  }

  function drawMarks() {
    const B = st.bands, p = pxuNow(), marks = {}, keep = [];
    for (let k = 0; k < B.lo.length; k++) if (B.node[k] >= n && resolved(B.node[k], p)) keep.push(k);
    for (const [key, col] of Object.entries(st.markCols)) marks[key] = keep.map((k) => col[k]);
    marks.band = keep;
    S.marks.data = marks;
  }
  // the links merged at step t: all of them when they are few for the frame's width (2 * MIN_PX pixels
  // each), else those resolved at the current zoom
  function drawHighlight() {
    const s = D.steps[st.t], few = (s.r1 - s.r0) * 2 * MIN_PX <= A.frame_w;
    S.hl.data = st.t > 0 && meta.kind !== "components" ? segs(few ? range(s.r0, s.r1) : resolvedRows(range(s.r0, s.r1)), {x0: [], y0: [], x1: [], y1: [], row: []})
      : {x0: [], y0: [], x1: [], y1: [], row: []};
  }

  // ---------------------------------------------------------------- hover: one cluster in every view
  function highlight(k) {
    const B = st.bands;
    st.hover = k;
    if (k < 0 || !B || k >= B.lo.length) {
      S.hov.data = {left: [], right: [], top: [], bottom: [], stop: []};
      S.hov_links.data = {x0: [], y0: [], x1: [], y1: [], row: []};
      for (const f of A.formed) f.visible = false;
      if (A.table_src.selected.indices.length) A.table_src.selected.indices = [];
      return;
    }
    const a = B.lo[k], b = B.hi[k], v = B.node[k];
    S.hov.data = {left: [a - 0.5], right: [b + 0.5], top: [-0.5], bottom: [R - 0.5], stop: [B.sens[k].length]};
    const m = nrows(st.t), rows = [];
    for (let i = 0; i < m; i++) if (lo[n + i] >= a && hi[n + i] <= b) rows.push(i);
    S.hov_links.data = segs(resolvedRows(rows), {x0: [], y0: [], x1: [], y1: [], row: []});
    for (const f of A.formed) { f.location = nodeH(v); f.visible = v >= n; }
    const sel = [];
    const inside = (u) => u >= 0 && lo[u] >= a && hi[u] <= b;
    D.steps[st.t].candidates.rows.forEach((r, i) => { if (inside(r.a_node) || inside(r.b_node)) sel.push(i); });
    A.table_src.selected.indices = sel;
  }

  // ---------------------------------------------------------------- URL fragment: #t=5&x0=..&x1=..
  function writeHash() {
    const h = "#t=" + st.t + "&x0=" + (+A.xr.start).toFixed(2) + "&x1=" + (+A.xr.end).toFixed(2);
    if (location.hash === h) return;
    try { history.replaceState(null, "", h); } catch (e) {
      // a page shown inline (an iframe's srcdoc: Jupyter, the documentation) has no URL of its own: location.replace
      // would load the host page into the frame, so the state stays in memory there
      if (location.protocol !== "about:") { try { location.replace(h); } catch (e2) { /* nowhere to keep it */ } }
    }
  }
  function readHash() {
    const q = {};
    for (const kv of (location.hash || "").replace(/^#/, "").split("&")) {
      const i = kv.indexOf("=");
      if (i > 0) q[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
    }
    return q;
  }
  function applyHash(fallback) {
    const q = readHash();
    const x0 = parseFloat(q.x0), x1 = parseFloat(q.x1);
    if (isFinite(x0) && isFinite(x1) && x1 > x0) A.xr.setv({start: Math.max(A.x0, x0), end: Math.min(A.x1, x1)});
    const t = q.t !== undefined && isFinite(parseFloat(q.t)) ? clampT(q.t) : clampT(fallback);
    setStep(t);
  }

  // ---------------------------------------------------------------- the window's width
  // The plots sharing the horizontal axis get one frame width that fills the window (their left borders
  // are equal, so leaf p stays over column p); the curves, texts and table follow the same width.
  function fit() {
    const v = Bokeh.index.find_one(A.plots[2]);
    if (!v) return false;
    const left = v.canvas_view.el.getBoundingClientRect().left + window.scrollX + v.frame.bbox.left;
    const avail = document.documentElement.clientWidth - left - A.border_right - 16;
    const fw = Math.max(A.min_frame_w, Math.floor(avail));
    if (fw === A.frame_w && A.plots[0].frame_width === fw) return false;
    A.frame_w = fw;
    for (const f of A.plots) f.frame_width = fw;
    const whole = Math.floor(left + fw + A.border_right);
    for (const c of A.curves) c.width = Math.floor(whole / A.curves.length) - 4;
    for (const m of A.wide) m.width = whole;
    for (const m of A.framed) m.width = fw;
    A.slider.width = Math.max(160, fw - 420);  // the buttons beside it take the rest
    scheduleView();
    return true;
  }

  return {
    cut, clampT, setStep, resolved, fit, highlight, collapse, drawLinks, scheduleView, applyHash, readHash, st, T, n, A,
    step(d) { setStep(st.t + d); },
    expandAll() { st.collapsed.clear(); drawLinks(); },
    foldCut() {  // every cluster of Q(t) folded into one band: the hierarchy above the cut only
      st.collapsed.clear();
      for (const v of st.bands.node) if (v >= n) st.collapsed.add(v);
      drawLinks();
    },
    resetZoom() { A.xr.setv({start: A.x0, end: A.x1}); },
    zoomTo(k) {  // band k of the current step and as much again on either side
      const B = st.bands;
      if (!B || k < 0 || k >= B.lo.length) return;
      const pad = Math.max(2, (B.hi[k] - B.lo[k] + 1) / 2);
      A.xr.setv({start: Math.max(A.x0, B.lo[k] - 0.5 - pad), end: Math.min(A.x1, B.hi[k] + 0.5 + pad)});
    },
  };
}
"""
