/// Any-segment-intersection detection over the edges of one or more rings (Shamos and Hoey's sweep),
/// with exact predicates, and the nesting of rings that do not meet.
///
/// The sweep visits the vertices in lexicographic order (x, then y), which is a vertical sweep line
/// turned by an infinitesimal angle: vertical edges need no special case. Each edge is directed from
/// its lexicographically smaller end `left` to the other, `right`; it enters the status when the
/// sweep reaches `left` and leaves it at `right` (at one point, entries before exits). The status is
/// an AVL tree of the edges crossing the sweep line, in the order of the line; an edge is tested
/// against the edges next to it whenever it gets a new neighbour. Two edges of one ring that follow
/// each other share a vertex by construction and are exempt ("neighbours").
///
/// Degenerate cases: two rings (or one ring) passing through one point share a vertex, which the
/// sort of the vertices finds first; a new edge whose left end lies on an edge already in the
/// status is caught by the comparison itself (collinear); collinear overlaps are an intersection
/// whose leftmost point is the left end of one edge, on the other. The first point where two
/// non-neighbouring edges meet is therefore seen, before any order in the status could be
/// inconsistent: the sweep stops at the first pair found.
///
/// - Complexity: O(n log n) time and O(n) memory for n edges in all rings, whatever their shape.
struct SegmentSweep {
    /// Every vertex, ring after ring.
    let points: [PixelPoint]
    /// Ring `r` holds the vertices (and edges) `ringStarts[r] ..< ringStarts[r + 1]`.
    let ringStarts: [Int]
    /// The ring of each vertex.
    let ringOf: [Int32]

    /// What the sweep found.
    enum Outcome {
        /// Edges `e` and `f` (global indices, `e < f`) meet, and are not neighbours of one ring.
        case meet(Int, Int)
        /// No two edges meet. `parents[r]` is the ring that directly encloses ring `r`, if any.
        case disjoint(parents: [Int?])
    }

    /// - Complexity: O(n) for n vertices.
    init(rings: [[PixelPoint]]) {
        var points: [PixelPoint] = []
        var starts = [0]
        var ringOf: [Int32] = []
        points.reserveCapacity(rings.reduce(0) { $0 + $1.count })
        ringOf.reserveCapacity(points.capacity)
        for (r, ring) in rings.enumerated() {
            points.append(contentsOf: ring)
            ringOf.append(contentsOf: repeatElement(Int32(r), count: ring.count))
            starts.append(points.count)
        }
        self.points = points
        self.ringStarts = starts
        self.ringOf = ringOf
    }

    /// The vertex after `e` in its ring: edge `e` runs from vertex `e` to `next(e)`.
    @inline(__always)
    func next(_ e: Int) -> Int {
        let r = Int(ringOf[e])
        return e + 1 == ringStarts[r + 1] ? ringStarts[r] : e + 1
    }

    /// The vertex before `e` in its ring: edge `previous(e)` ends at vertex `e`.
    @inline(__always)
    func previous(_ e: Int) -> Int {
        let r = Int(ringOf[e])
        return e == ringStarts[r] ? ringStarts[r + 1] - 1 : e - 1
    }

    /// True when edges `e` and `f` follow each other in one ring.
    @inline(__always)
    func neighbours(_ e: Int, _ f: Int) -> Bool {
        ringOf[e] == ringOf[f] && (next(e) == f || next(f) == e)
    }

    /// Runs the sweep. Rings must have at least three vertices each, and no edge may fold back over
    /// the next one (callers check spikes first, in O(n)); with `findParents`, each ring must also
    /// be simple on its own, so that any pair found is of two rings.
    /// - Complexity: O(n log n) time, O(n) memory.
    func run(findParents: Bool) -> Outcome {
        let n = points.count
        // Vertices in sweep order; a point visited twice is a meeting of the two edges leaving it.
        let order = (0..<n).sorted { a, b in
            let p = points[a], q = points[b]
            return p.x < q.x || (p.x == q.x && p.y < q.y)
        }
        for k in 1..<max(1, n) where points[order[k - 1]] == points[order[k]] {
            let e = order[k - 1], f = order[k]
            return .meet(min(e, f), max(e, f))
        }
        // Ends of each edge, in sweep order.
        var left = [PixelPoint](), right = [PixelPoint]()
        left.reserveCapacity(n)
        right.reserveCapacity(n)
        for e in 0..<n {
            let a = points[e], b = points[next(e)]
            if a.x < b.x || (a.x == b.x && a.y < b.y) {
                left.append(a)
                right.append(b)
            } else {
                left.append(b)
                right.append(a)
            }
        }
        func meets(_ e: Int32, _ f: Int32) -> Bool {
            let e = Int(e), f = Int(f)
            return !neighbours(e, f) && segmentsIntersect(left[e], right[e], left[f], right[f])
        }
        func pair(_ e: Int32, _ f: Int32) -> Outcome { .meet(Int(min(e, f)), Int(max(e, f))) }

        let ringCount = ringStarts.count - 1
        var parents = [Int?](repeating: nil, count: findParents ? ringCount : 0)
        var ringTurn = [Orientation](repeating: .collinear, count: findParents ? ringCount : 0)
        var tree = StatusTree(count: n)
        /// Puts edge `e` into the status at its left end `p`; returns a meeting if one shows.
        func enter(_ e: Int, at p: PixelPoint, firstOfRing: Bool) -> Outcome? {
            var found: Int32 = -1
            tree.insert(Int32(e)) { x in
                let x = Int(x)
                let side = orientation(left[x], right[x], p)
                if side != .collinear { return side == .counterClockwise ? .greater : .less }
                // p lies on x (x spans the sweep position): a meeting unless x is e's neighbour,
                // whose shared vertex is then p; order the two by e's other end.
                if !neighbours(e, x) {
                    found = Int32(x)
                    return .stop
                }
                return orientation(left[x], right[x], right[e]) == .clockwise ? .less : .greater
            }
            if found >= 0 { return pair(Int32(e), found) }
            let below = tree.predecessor(Int32(e)), above = tree.successor(Int32(e))
            if below >= 0 && meets(Int32(e), below) { return pair(Int32(e), below) }
            if above >= 0 && meets(Int32(e), above) { return pair(Int32(e), above) }
            if firstOfRing {
                // p is the ring's first vertex in sweep order, so its smallest: a convex corner,
                // where the turn is the ring's orientation, never collinear (no spikes).
                let r = Int(ringOf[e])
                ringTurn[r] = orientation(points[previous(e)], p, points[next(e)])
                // Nothing lies between p and the edge just below it, so p is inside that edge's
                // ring exactly when it is on the ring's inner side of the edge: that ring then
                // encloses this one directly; otherwise the two rings have the same parent.
                if below >= 0 {
                    let b = Int(below), q = Int(ringOf[b])
                    let inside = orientation(points[b], points[next(b)], p) == ringTurn[q]
                    parents[r] = inside ? q : parents[q]
                }
            }
            return nil
        }
        /// Takes edge `e` out of the status; its two neighbours meet each other.
        func leave(_ e: Int) -> Outcome? {
            let below = tree.predecessor(Int32(e)), above = tree.successor(Int32(e))
            tree.remove(Int32(e))
            if below >= 0 && above >= 0 && meets(below, above) { return pair(below, above) }
            return nil
        }
        for v in order {
            let p = points[v]
            // The two edges at vertex v: v -> next(v) and previous(v) -> v; entries first. At a
            // ring's first vertex both enter, v's own edge first (its parent is found then).
            let outgoing = v, incoming = previous(v)
            let firstOfRing = findParents && ringTurn[Int(ringOf[v])] == .collinear
            if left[outgoing] == p, let found = enter(outgoing, at: p, firstOfRing: firstOfRing) { return found }
            if left[incoming] == p, let found = enter(incoming, at: p, firstOfRing: false) { return found }
            if right[outgoing] == p, let found = leave(outgoing) { return found }
            if right[incoming] == p, let found = leave(incoming) { return found }
        }
        return .disjoint(parents: parents)
    }
}

/// The sweep's status: an AVL tree whose nodes are edge numbers, with parent links so that an
/// edge is removed, and its neighbours found, without comparisons.
/// - Complexity: O(log n) a step; O(n) memory for n edges.
struct StatusTree {
    enum Step { case less, greater, stop }

    private var left: [Int32]
    private var right: [Int32]
    private var up: [Int32]
    private var height: [Int32]
    private var root: Int32 = -1

    init(count: Int) {
        left = [Int32](repeating: -1, count: count)
        right = left
        up = left
        height = [Int32](repeating: 1, count: count)
    }

    @inline(__always) private func h(_ x: Int32) -> Int32 { x < 0 ? 0 : height[Int(x)] }

    /// Inserts `node`; `compare(x)` says on which side of `x` it goes, or `.stop` to give up (the
    /// tree is then left unchanged).
    mutating func insert(_ node: Int32, _ compare: (Int32) -> Step) {
        let i = Int(node)
        left[i] = -1
        right[i] = -1
        height[i] = 1
        guard root >= 0 else {
            up[i] = -1
            root = node
            return
        }
        var x = root
        while true {
            switch compare(x) {
            case .stop: return
            case .less:
                if left[Int(x)] < 0 {
                    left[Int(x)] = node
                    up[i] = x
                    retrace(from: x)
                    return
                }
                x = left[Int(x)]
            case .greater:
                if right[Int(x)] < 0 {
                    right[Int(x)] = node
                    up[i] = x
                    retrace(from: x)
                    return
                }
                x = right[Int(x)]
            }
        }
    }

    /// The node just before `node` in order, or -1.
    func predecessor(_ node: Int32) -> Int32 {
        var x = node
        if left[Int(x)] >= 0 {
            x = left[Int(x)]
            while right[Int(x)] >= 0 { x = right[Int(x)] }
            return x
        }
        var parent = up[Int(x)]
        while parent >= 0 && left[Int(parent)] == x {
            x = parent
            parent = up[Int(x)]
        }
        return parent
    }

    /// The node just after `node` in order, or -1.
    func successor(_ node: Int32) -> Int32 {
        var x = node
        if right[Int(x)] >= 0 {
            x = right[Int(x)]
            while left[Int(x)] >= 0 { x = left[Int(x)] }
            return x
        }
        var parent = up[Int(x)]
        while parent >= 0 && right[Int(parent)] == x {
            x = parent
            parent = up[Int(x)]
        }
        return parent
    }

    /// Removes `node` (which must be in the tree).
    mutating func remove(_ node: Int32) {
        let z = Int(node)
        var retraceFrom: Int32
        if left[z] < 0 {
            retraceFrom = up[z]
            transplant(node, right[z])
        } else if right[z] < 0 {
            retraceFrom = up[z]
            transplant(node, left[z])
        } else {
            var y = right[z]
            while left[Int(y)] >= 0 { y = left[Int(y)] }
            if up[Int(y)] != node {
                retraceFrom = up[Int(y)]
                transplant(y, right[Int(y)])
                right[Int(y)] = right[z]
                up[Int(right[Int(y)])] = y
            } else {
                retraceFrom = y
            }
            transplant(node, y)
            left[Int(y)] = left[z]
            up[Int(left[Int(y)])] = y
        }
        if retraceFrom >= 0 { retrace(from: retraceFrom) }
    }

    /// Puts `v` where `u` hangs.
    private mutating func transplant(_ u: Int32, _ v: Int32) {
        let parent = up[Int(u)]
        if parent < 0 {
            root = v
        } else if left[Int(parent)] == u {
            left[Int(parent)] = v
        } else {
            right[Int(parent)] = v
        }
        if v >= 0 { up[Int(v)] = parent }
    }

    /// Restores heights and balance from `start` up to the root.
    private mutating func retrace(from start: Int32) {
        var x = start
        while x >= 0 {
            let i = Int(x)
            let balance = h(left[i]) - h(right[i])
            if balance > 1 {
                let l = left[i]
                if h(left[Int(l)]) < h(right[Int(l)]) { rotateLeft(l) }
                x = rotateRight(x)
            } else if balance < -1 {
                let r = right[i]
                if h(right[Int(r)]) < h(left[Int(r)]) { rotateRight(r) }
                x = rotateLeft(x)
            } else {
                height[i] = 1 + max(h(left[i]), h(right[i]))
            }
            x = up[Int(x)]
        }
    }

    /// Rotates `x` down to the left; returns the node now in its place.
    @discardableResult
    private mutating func rotateLeft(_ x: Int32) -> Int32 {
        let i = Int(x)
        let y = right[i]
        let j = Int(y)
        right[i] = left[j]
        if left[j] >= 0 { up[Int(left[j])] = x }
        transplant(x, y)
        left[j] = x
        up[i] = y
        height[i] = 1 + max(h(left[i]), h(right[i]))
        height[j] = 1 + max(h(left[j]), h(right[j]))
        return y
    }

    /// Rotates `x` down to the right; returns the node now in its place.
    @discardableResult
    private mutating func rotateRight(_ x: Int32) -> Int32 {
        let i = Int(x)
        let y = left[i]
        let j = Int(y)
        left[i] = right[j]
        if right[j] >= 0 { up[Int(right[j])] = x }
        transplant(x, y)
        right[j] = x
        up[i] = y
        height[i] = 1 + max(h(left[i]), h(right[i]))
        height[j] = 1 + max(h(left[j]), h(right[j]))
        return y
    }
}
