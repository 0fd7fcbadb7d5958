import Foundation
import Testing
@testable import PlanMarkGeometry
import PlanMarkTestSupport

/// `FDLibm.pow` / `FDLibm.log` against what V8 computes (`Vectors/fdlibm.txt`, from Node), against
/// JavaScript's documented special cases, and against the platform's libm (within 1 ulp).
@Suite struct FDLibmTests {
    @Test func powIsBitIdenticalToV8() async throws {
        let lines = try CRSVectors.lines(of: "fdlibm.txt").filter { $0.tokens.first == "pow" }
        #expect(lines.count > 4000)
        var failures: [String] = []
        for line in lines {
            let x = line.double(1), y = line.double(2), expected = line.double(3)
            let actual = FDLibm.pow(x, y)
            if !CRSVectors.same(actual, expected) {
                failures.append("\(line) -> \(CRSVectors.hex(actual)) (\(actual) vs \(expected))")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) mismatches, first: \(failures.prefix(5))")
    }

    @Test func logIsBitIdenticalToV8() async throws {
        let lines = try CRSVectors.lines(of: "fdlibm.txt").filter { $0.tokens.first == "log" }
        #expect(lines.count > 1500)
        var failures: [String] = []
        for line in lines {
            let x = line.double(1), expected = line.double(2)
            let actual = FDLibm.log(x)
            if !CRSVectors.same(actual, expected) {
                failures.append("\(line) -> \(CRSVectors.hex(actual)) (\(actual) vs \(expected))")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) mismatches, first: \(failures.prefix(5))")
    }

    /// ECMA-262 `Number::exponentiate`, where JavaScript differs from C99's `pow`.
    @Test func javaScriptSpecialCasesOfPow() async {
        #expect(FDLibm.pow(1, .nan).isNaN)  // C99: 1
        #expect(FDLibm.pow(1, .infinity).isNaN)  // C99: 1
        #expect(FDLibm.pow(-1, -.infinity).isNaN)  // C99: 1
        #expect(FDLibm.pow(.nan, 0) == 1)
        #expect(FDLibm.pow(.nan, -0.0) == 1)
        #expect(FDLibm.pow(.nan, 1).isNaN)
        #expect(FDLibm.pow(-8, 1.0 / 3).isNaN)
        #expect(FDLibm.pow(0.5, .infinity) == 0)
        #expect(FDLibm.pow(0.5, -.infinity) == .infinity)
        #expect(FDLibm.pow(2, -.infinity).bitPattern == (0.0).bitPattern)
        #expect(FDLibm.pow(-0.0, -1) == -.infinity)
        #expect(FDLibm.pow(-0.0, -2) == .infinity)
        #expect(FDLibm.pow(-0.0, 3).bitPattern == (-0.0).bitPattern)
        #expect(FDLibm.pow(-0.0, 2).bitPattern == (0.0).bitPattern)
        #expect(FDLibm.pow(-.infinity, 3) == -.infinity)
        #expect(FDLibm.pow(-.infinity, -3).bitPattern == (-0.0).bitPattern)
        #expect(FDLibm.pow(-2, 3) == -8)
        #expect(FDLibm.pow(2, 0.5) == (2.0).squareRoot())
    }

    /// Powers of two are exact over the whole range, subnormals included, and 0 / Infinity past it.
    @Test func integerPowersOfTwoAreExact() async {
        for n in -1074...1023 {
            let expected = Double(sign: .plus, exponent: n, significand: 1)
            #expect(FDLibm.pow(2, Double(n)) == expected, "2^\(n)")
        }
        #expect(FDLibm.pow(2, 1024) == .infinity)
        #expect(FDLibm.pow(2, -1075) == 0)
        #expect(FDLibm.pow(2, -1074) == .leastNonzeroMagnitude)
    }

    @Test func specialCasesOfLog() async {
        #expect(FDLibm.log(1).bitPattern == (0.0).bitPattern)
        #expect(FDLibm.log(0) == -.infinity)
        #expect(FDLibm.log(-0.0) == -.infinity)
        #expect(FDLibm.log(-1).isNaN)
        #expect(FDLibm.log(-.infinity).isNaN)
        #expect(FDLibm.log(.nan).isNaN)
        #expect(FDLibm.log(.infinity) == .infinity)
        // log(2) is fdlibm's ln2_hi + ln2_lo, which rounds to the double nearest ln 2.
        #expect(FDLibm.log(2) == 0.6931471805599453)
    }

    /// fdlibm and the platform's libm differ by at most 1 ulp (neither is always correctly rounded).
    @Test func powAgreesWithTheSystemLibmWithinOneUlp() async {
        var generator = SeededGenerator(seed: 0x00C0_FFEE)
        var worst = 0.0
        for _ in 0..<20000 {
            let x = Double.random(in: 1e-6...1e6, using: &generator)
            let y = Double.random(in: -30...30, using: &generator)
            let ours = FDLibm.pow(x, y), theirs = Foundation.pow(x, y)
            guard theirs.isFinite, theirs != 0 else { continue }
            let ulps = abs(ours - theirs) / theirs.ulp
            worst = max(worst, ulps)
        }
        #expect(worst <= 1, "seed \(generator.seed)")
        for z in stride(from: -30.0, through: 30.0, by: 0.01) {
            let ours = FDLibm.pow(2, z), theirs = Foundation.pow(2, z)
            #expect(abs(ours - theirs) <= theirs.ulp, "2^\(z)")
        }
    }

    @Test func logAgreesWithTheSystemLibmWithinOneUlp() async {
        var generator = SeededGenerator(seed: 0x0010_6106)
        for _ in 0..<20000 {
            let x = Double(sign: .plus, exponent: Int.random(in: -1000...1000, using: &generator),
                           significand: Double.random(in: 1..<2, using: &generator))
            let ours = FDLibm.log(x), theirs = Foundation.log(x)
            #expect(abs(ours - theirs) <= theirs.ulp, "log(\(x)) (seed \(generator.seed))")
        }
    }
}
