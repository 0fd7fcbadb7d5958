import Foundation
import Testing
@testable import PlanMarkGeometry

private func pts(_ list: [(Double, Double)]) -> [PixelPoint] { list.map { PixelPoint(x: $0.0, y: $0.1) } }
private let origin = RingPosition(polygon: 0, ring: 0)

/// Ring normalisation and the load-time refusals.
@Suite struct RingTests {
    @Test func closingVertexAndDuplicatesAreDropped() async throws {
        let ring = try Ring(pts([(0, 0), (0, 0), (10, 0), (10, 10), (10, 10), (0, 10), (0, 0)]), region: "R", at: origin)
        #expect(ring.vertices == pts([(0, 0), (10, 0), (10, 10), (0, 10)]))
        #expect(ring.bounds == BoundingBox(minX: 0, minY: 0, maxX: 10, maxY: 10))
        #expect(abs(ring.doubleSignedArea) == 200)
    }

    @Test func tooFewDistinctVertices() async {
        #expect(throws: GeometryError.tooFewVertices(region: "R", at: origin, count: 2)) {
            try Ring(pts([(0, 0), (1, 1), (0, 0)]), region: "R", at: origin)
        }
    }

    @Test func nonFinite() async {
        #expect(throws: GeometryError.nonFiniteCoordinate(region: "R", at: origin, vertex: 1)) {
            try Ring(pts([(0, 0), (.nan, 1), (5, 5)]), region: "R", at: origin)
        }
        #expect(throws: GeometryError.nonFiniteCoordinate(region: "R", at: origin, vertex: 2)) {
            try Ring(pts([(0, 0), (1, 1), (.infinity, 5)]), region: "R", at: origin)
        }
    }

    @Test func zeroArea() async {
        #expect(throws: GeometryError.zeroArea(region: "R", at: origin)) {
            try Ring(pts([(0, 0), (5, 5), (10, 10), (20, 20)]), region: "R", at: origin)
        }
    }

    @Test(arguments: [
        // A bow-tie: edges 0 (0,0)-(10,10) and 2 (10,0)-(0,10) cross.
        [(0.0, 0.0), (10, 10), (10, 0), (0, 10)],
        // A spike: (10,0) -> (20,0) -> (15,0) folds back along the same line.
        [(0.0, 0.0), (20, 0), (15, 0), (15, 10), (0, 10)],
        // Touching itself at a vertex (figure eight).
        [(0.0, 0.0), (10, 0), (5, 5), (10, 10), (0, 10), (5, 5)],
        // An edge passing through a non-adjacent vertex.
        [(0.0, 0.0), (10, 0), (10, 10), (5, 0), (0, 10)],
    ])
    func selfIntersecting(_ ring: [(Double, Double)]) {
        #expect(throws: GeometryError.self) { try Ring(pts(ring), region: "R", at: origin) }
        do {
            _ = try Ring(pts(ring), region: "R", at: origin)
        } catch {
            guard case .selfIntersecting = error else {
                Issue.record("expected selfIntersecting, got \(error)")
                return
            }
        }
    }

    @Test func messageNamesRegionAndRing() async {
        let error = GeometryError.selfIntersecting(region: "2.04", at: RingPosition(polygon: 1, ring: 2), edge: 0, otherEdge: 2)
        #expect(error.description == "region 2.04: polygon 1 ring 2: is self-intersecting (edges 0 and 2 meet)")
    }

    @Test func validCurvedRingIsAccepted() async throws {
        // A half-disc with a 1000-vertex arc: no two edges meet except neighbours.
        var points: [PixelPoint] = []
        for k in 0...1000 {
            let angle = Double.pi * Double(k) / 1000
            points.append(PixelPoint(x: 500 + 400 * cos(angle), y: 500 - 400 * sin(angle)))
        }
        let ring = try Ring(points, region: "C", at: origin)
        #expect(ring.vertices.count == 1001)
    }
}

