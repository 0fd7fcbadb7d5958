import Testing
@testable import PlanMarkGeometry

private func p(_ x: Double, _ y: Double) -> PixelPoint { PixelPoint(x: x, y: y) }
private func pair(_ x: Double, _ y: Double, _ X: Double, _ Y: Double) -> AlignmentPair { AlignmentPair(from: p(x, y), to: p(X, Y)) }

/// The transforms that carry markers to a new revision of a sheet, against values worked out by hand.
@Suite struct AlignmentTests {
    @Test func noPairsIsTheIdentity() async throws {
        let alignment = try Alignment.fit([])
        #expect(alignment.transform == .identity && alignment.residuals.isEmpty)
        #expect(AffineMap.identity.apply(p(12.5, -3)) == p(12.5, -3))
    }

    /// Both pairs moved by (+30, -20): the similarity is that translation, with scale 1 and no rotation.
    @Test func pureTranslation() async throws {
        let alignment = try Alignment.fit([pair(10, 10, 40, -10), pair(110, 60, 140, 40)])
        #expect(alignment.transform == AffineMap(a: 1, b: 0, c: 30, d: 0, e: 1, f: -20))
        #expect(alignment.transform.apply(p(200, 150)) == p(230, 130))
        #expect(alignment.residuals == [0, 0])
    }

    /// The sheet re-exported at twice the resolution: (x, y) -> (2x, 2y).
    @Test func twoTimesScale() async throws {
        let alignment = try Alignment.fit([pair(0, 0, 0, 0), pair(100, 50, 200, 100)])
        #expect(alignment.transform == AffineMap(a: 2, b: 0, c: 0, d: 0, e: 2, f: 0))
        #expect(alignment.transform.apply(p(37.5, 12.25)) == p(75, 24.5))
    }

    /// A quarter turn: (0,0) -> (100,0) and (10,0) -> (100,10), so s = (0 + 10i) / (10 + 0i) = i and
    /// x' = -y + 100, y' = x. The marker at (5, 3) lands at (97, 5).
    @Test func ninetyDegreeRotation() async throws {
        let alignment = try Alignment.fit([pair(0, 0, 100, 0), pair(10, 0, 100, 10)])
        #expect(alignment.transform == AffineMap(a: 0, b: -1, c: 100, d: 1, e: 0, f: 0))
        #expect(alignment.transform.apply(p(5, 3)) == p(97, 5))
        #expect(alignment.transform.determinant == 1)
    }

    /// Four corners of a 10 x 10 square; the new sheet is twice the size, but its last corner was clicked
    /// one pixel low: (10,10) -> (20,21). By hand, centred on (5, 5) and (10, 10.25): x' = 2x exactly; for y',
    /// Sxx = Syy = 100, Sxy = 0, SxY = 5, SyY = 205, so d = 0.05, e = 2.05, f = 10.25 - 5 d - 5 e = -0.25.
    /// Predicted y' at the corners: -0.25, 0.25, 20.25, 20.75 against 0, 0, 20, 21: every residual is 0.25.
    @Test func affineFromFourPairsWithAKnownResidual() async throws {
        let alignment = try Alignment.fit([pair(0, 0, 0, 0), pair(10, 0, 20, 0), pair(0, 10, 0, 20), pair(10, 10, 20, 21)])
        let t = alignment.transform
        let expected: [Double] = [2, 0, 0, 0.05, 2.05, -0.25]
        for (got, want) in zip(t.coefficients, expected) { #expect(abs(got - want) < 1e-12, "\(t.coefficients)") }
        #expect(alignment.residuals.count == 4)
        for residual in alignment.residuals { #expect(abs(residual - 0.25) < 1e-12, "\(alignment.residuals)") }
        #expect(abs(alignment.maxResidual - 0.25) < 1e-12)
    }

    /// Three pairs determine an affine exactly (a shear here: x' = x + 0.5 y + 3, y' = y - 2), residuals 0.
    @Test func threePairsAreExact() async throws {
        let alignment = try Alignment.fit([pair(0, 0, 3, -2), pair(100, 0, 103, -2), pair(0, 100, 53, 98)])
        let expected: [Double] = [1, 0.5, 3, 0, 1, -2]
        for (got, want) in zip(alignment.transform.coefficients, expected) { #expect(abs(got - want) < 1e-12) }
        #expect(alignment.maxResidual < 1e-9)
    }

    @Test func degenerateInputIsRefused() async {
        #expect(throws: AlignmentError.coincidentPoints(to: false)) { try Alignment.fit([pair(5, 5, 0, 0), pair(5, 5, 10, 10)]) }
        #expect(throws: AlignmentError.coincidentPoints(to: true)) { try Alignment.fit([pair(0, 0, 7, 7), pair(5, 5, 7, 7)]) }
        #expect(throws: AlignmentError.collinearPoints) {
            try Alignment.fit([pair(0, 0, 0, 0), pair(10, 10, 20, 20), pair(20, 20, 40, 41), pair(30, 30, 60, 60)])
        }
        #expect(throws: AlignmentError.singularTransform) {
            try Alignment.fit([pair(0, 0, 0, 0), pair(10, 0, 10, 10), pair(0, 10, 20, 20)])
        }
        #expect(throws: AlignmentError.tooFewPairs(count: 1)) { try Alignment.fit([pair(0, 0, 1, 1)]) }
        #expect(throws: AlignmentError.nonFinite(pair: 1)) { try Alignment.fit([pair(0, 0, 1, 1), pair(.nan, 0, 1, 1)]) }
    }

    /// Pairs of finite numbers whose transform is not finite or collapses the sheet. 1e-200 squared underflows to 0
    /// and 1e200 squared overflows, so the similarity's scale is 1/0 or 0 (worked out by hand); a scale of 1e-320
    /// is a subnormal whose square (the determinant) underflows to 0; a least-squares fit whose sums overflow.
    @Test func transformsThatAreNotFiniteAreRefused() async {
        #expect(throws: AlignmentError.notFinite) { try Alignment.fit([pair(0, 0, 0, 0), pair(1e-200, 0, 1, 0)]) }
        #expect(throws: AlignmentError.notFinite) { try Alignment.fit([pair(0, 0, 0, 0), pair(1e200, 0, 1, 0)]) }
        #expect(throws: AlignmentError.collapses) { try Alignment.fit([pair(0, 0, 0, 0), pair(1, 0, 1e-320, 0)]) }
        #expect(throws: AlignmentError.notFinite) {
            try Alignment.fit([pair(0, 0, 0, 0), pair(100, 0, 0, 100), pair(0, 100, 1e308, 1e308)])
        }
        // Scale 1e308 is a finite transform: the control points are carried, a far marker is not.
        let huge = try? Alignment.fit([pair(0, 0, 0, 0), pair(1, 0, 1e308, 0)])
        #expect(huge?.transform.carried(p(1, 0)) == p(1e308, 0))
        #expect(huge?.transform.carried(p(2, 0)) == nil)
    }

    /// A region carried through a 2x scale: every vertex doubled, bounds doubled; a mirror keeps it valid.
    @Test func regionTransformsEveryVertex() async throws {
        let square = try Region(id: "R", coordinates: [[[p(10, 10), p(20, 10), p(20, 20), p(10, 20)],
                                                         [p(12, 12), p(14, 12), p(14, 14), p(12, 14)]]])
        let doubled = try square.transformed(by: AffineMap(a: 2, b: 0, c: 0, d: 0, e: 2, f: 0))
        #expect(doubled.polygons[0].exterior.vertices == [p(20, 20), p(40, 20), p(40, 40), p(20, 40)])
        #expect(doubled.polygons[0].holes[0].vertices == [p(24, 24), p(28, 24), p(28, 28), p(24, 28)])
        #expect(doubled.bounds == BoundingBox(minX: 20, minY: 20, maxX: 40, maxY: 40))
        let mirrored = try square.transformed(by: AffineMap(a: -1, b: 0, c: 100, d: 0, e: 1, f: 0))
        #expect(mirrored.bounds == BoundingBox(minX: 80, minY: 10, maxX: 90, maxY: 20))
        #expect(MarkerValidator(regions: [mirrored]).validate(p(81, 11)).hits.count == 1)
        #expect(MarkerValidator(regions: [mirrored]).validate(p(87, 13)).hits.isEmpty)  // in the hole (100 - 13 = 87)
    }

    /// The label moves with the sheet: its box carried through the transform, corners sorted again (a mirror swaps
    /// them; a quarter turn makes a tall box of a wide one).
    @Test func labelBoxMovesWithTheRegion() async throws {
        let room = try Region(id: "R", coordinates: [[[p(10, 10), p(20, 10), p(20, 20), p(10, 20)]]],
                              labelBox: BoundingBox(minX: 11, minY: 14, maxX: 19, maxY: 16))
        let mirrored = try room.transformed(by: AffineMap(a: -1, b: 0, c: 100, d: 0, e: 1, f: 0))
        #expect(mirrored.labelBox == BoundingBox(minX: 81, minY: 14, maxX: 89, maxY: 16))
        // x' = -y + 50, y' = x: (11, 14) -> (36, 11), (19, 16) -> (34, 19).
        let turned = try room.transformed(by: AffineMap(a: 0, b: -1, c: 50, d: 1, e: 0, f: 0))
        #expect(turned.labelBox == BoundingBox(minX: 34, minY: 11, maxX: 36, maxY: 19))
        let plain = try Region(id: "S", coordinates: [[[p(10, 10), p(20, 10), p(20, 20)]]])
        #expect(try plain.transformed(by: AffineMap(a: 2, b: 0, c: 0, d: 0, e: 2, f: 0)).labelBox == nil)
    }
}
