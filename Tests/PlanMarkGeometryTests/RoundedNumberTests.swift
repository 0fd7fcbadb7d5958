import Testing
@testable import PlanMarkGeometry

/// Numbers for people: half away from zero on the decimal people read, each quantity's step, and a
/// paper-scale calibration kept exactly. Expected values worked out by hand (the binary values quoted
/// are Python's `decimal.Decimal(x)`).
@Suite struct RoundedNumberTests {
    /// 27.75 and 11.25 are exact in binary; at one decimal they round up (not to even), at 0.01 m² they stay.
    @Test func halvesRoundAwayFromZero() {
        #expect(RoundedNumber(27.75, decimals: 1).text == "27.8")
        #expect(RoundedNumber(11.25, decimals: 1).text == "11.3")
        #expect(RoundedNumber(0.5, decimals: 0).text == "1")
        #expect(RoundedNumber(2.5, decimals: 0).text == "3")
        #expect(Quantity.squareMetres.text(27.75) == "27.75")
        #expect(Quantity.squareMetres.text(11.25) == "11.25")
    }

    /// 2.675 is 2.67499999999999982236... in binary, 0.285 is 0.28499999999999997557..., 1.005 is
    /// 1.00499999999999989341...: each reads as ...5 and so rounds up, though the binary value is below.
    @Test func theDecimalPeopleReadNotTheBinary() {
        #expect(RoundedNumber(2.675, decimals: 2).text == "2.68")
        #expect(RoundedNumber(0.285, decimals: 2).text == "0.29")
        #expect(RoundedNumber(1.005, decimals: 2).text == "1.01")
        #expect(Quantity.metres.text(0.0005) == "0.001")
        #expect(Quantity.metres.text(0.0004999) == "0.000")
    }

    /// Binary noise goes: 24.999999999999993 m² is 25.00, 0.009999999999999998 m per pixel is 0.01,
    /// 948.6832980505138 px (the distance from 0,0 to 300,900) is 948.7.
    @Test func noiseFromTheIssue() {
        #expect(Quantity.squareMetres.text(24.999999999999993) == "25.00")
        #expect(Quantity.squareMetres.json(24.999999999999993) == "25")
        #expect(Quantity.squareMetres.rounded(24.999999999999993).value == 25)
        #expect(Quantity.metresPerPixel.text(0.009999999999999998) == "0.01")
        #expect(Quantity.metresPerPixel.rounded(0.009999999999999998).text == "0.010000")
        #expect(Quantity.pixels.text(948.6832980505138) == "948.7")
        #expect(Quantity.metres.text(9.486832980505138) == "9.487")
        #expect(Quantity.metres.json(19.999999999999996) == "20")
    }

    /// Negative values round away from zero too; one that rounds to zero is written without a sign.
    @Test func negativeValues() {
        #expect(RoundedNumber(-2.675, decimals: 2).text == "-2.68")
        #expect(RoundedNumber(-27.75, decimals: 1).text == "-27.8")
        #expect(Quantity.metres.text(-4.25) == "-4.250")
        #expect(RoundedNumber(-0.004, decimals: 2).text == "0.00")
        #expect(RoundedNumber(-0.0, decimals: 2).text == "0.00")
        #expect(RoundedNumber(-0.005, decimals: 2).text == "-0.01")
        #expect(Quantity.squareMetres.json(-0.004) == "0")
    }

    /// A carry runs through nines; zeros, tiny and huge values, and values that are not finite.
    @Test func edges() {
        #expect(RoundedNumber(9.9995, decimals: 3).text == "10.000")
        #expect(RoundedNumber(999.96, decimals: 1).text == "1000.0")
        #expect(RoundedNumber(0, decimals: 2).text == "0.00")
        #expect(RoundedNumber(0, decimals: 0).text == "0")
        #expect(RoundedNumber(1e-05, decimals: 3).text == "0.000")
        #expect(RoundedNumber(.leastNonzeroMagnitude, decimals: 2).text == "0.00")
        #expect(RoundedNumber(0.05, decimals: 1).text == "0.1")
        #expect(RoundedNumber(0.049, decimals: 1).text == "0.0")
        #expect(RoundedNumber(1e21, decimals: 2).text == "1000000000000000000000.00")
        #expect(RoundedNumber(2.5e-7, decimals: 3).shortText == "0")
        #expect(RoundedNumber(Double.nan, decimals: 2).text == "nan")
        #expect(RoundedNumber(Double.nan, decimals: 2).json == "null")
        #expect(RoundedNumber(-Double.infinity, decimals: 2).text == "-inf")
        #expect(Quantity.squareMetres.json(.infinity) == "null")
    }

    /// A scale keeps 4 significant digits whatever its size: 1:100 at 300 dpi is 0.0254 / 3 =
    /// 0.0084666... m, 1:10 at 300 dpi 0.00084666... m; 12,345.6 to 4 digits is 12,350.
    @Test func significantDigits() {
        #expect(Quantity.metresPerPixel.text(0.0254 / 3) == "0.008467")
        #expect(Quantity.metresPerPixel.text(0.00254 / 3) == "0.0008467")
        #expect(Quantity.metresPerPixel.text(0.01016) == "0.01016")
        #expect(Quantity.metresPerPixel.text(0.5) == "0.5")
        #expect(Quantity.metresPerPixel.text(12_345.6) == "12350")
        #expect(Quantity.metresPerPixel.text(9.99951) == "10")
        #expect(RoundedNumber(0.0254 / 3, significantDigits: 4).text == "0.008467")
        #expect(RoundedNumber(0, significantDigits: 4).text == "0")
    }

    /// Each quantity's step, trailing zeros shown in `text`, dropped in `json`.
    @Test func steps() {
        #expect(Quantity.metres.text(5) == "5.000" && Quantity.metres.json(5) == "5")
        #expect(Quantity.pixels.text(500) == "500.0" && Quantity.pixels.json(500) == "500")
        #expect(Quantity.squareMetres.text(532) == "532.00")
        #expect(Quantity.squareMetres.text(12.345) == "12.35")
        #expect(Quantity.squareMetres.json(0.1) == "0.1")
    }

    /// The shortest digits of a double, as an integer times a power of ten.
    @Test func decimalDigits() throws {
        let d = try #require(DecimalDigits(2.675))
        #expect(d.digits == [2, 6, 7, 5] && d.exponent == -3 && !d.isNegative)
        let tiny = try #require(DecimalDigits(-1e-05))
        #expect(tiny.digits == [1] && tiny.exponent == -5 && tiny.isNegative)
        let big = try #require(DecimalDigits(2.5e20))
        #expect(big.digits == [2, 5] && big.exponent == 19)
        let round = try #require(DecimalDigits(2500))
        #expect(round.digits == [2, 5] && round.exponent == 2 && round.integer(scale: 0) == 2500)
        #expect(DecimalDigits(.nan) == nil)
    }

    /// A paper scale's metres per pixel is worked out on the decimals given: 1:100 at 254 dpi is exactly
    /// the double nearest 0.01 (the doubles' 0.0254 / 254 * 100 is 0.009999999999999998); 1:50 at 254 dpi
    /// 0.005; 1:1 at 2.54 dpi 0.01; 1:100 at 300 dpi 254 * 100 / (10,000 * 300) = 127 / 15,000, rounded once.
    @Test func paperScaleKeptExactly() throws {
        #expect(Calibration.paperScale(paper: 1, reality: 100, dpi: 254).metresPerPixel == 0.01)
        #expect(Calibration.paperScale(paper: 1, reality: 50, dpi: 254).metresPerPixel == 0.005)
        #expect(Calibration.paperScale(paper: 1, reality: 1, dpi: 2.54).metresPerPixel == 0.01)
        #expect(Calibration.paperScale(paper: 1, reality: 100, dpi: 300).metresPerPixel == 127.0 / 15_000.0)
        #expect(Calibration.paperScale(paper: 2, reality: 25, dpi: 127).metresPerPixel == 0.0025)  // 254 * 25 / (10,000 * 127 * 2)
        // Two points: 10 ft (3.048 m) over a 300 px 3-4-5 diagonal is 0.01016 exactly as a decimal.
        let p = { (x: Double, y: Double) in PixelPoint(x: x, y: y) }
        #expect(Calibration.twoPoints(from: p(0, 0), to: p(180, 240), distance: 10, unit: .ft).metresPerPixel == 0.01016)
        #expect(Calibration.twoPoints(from: p(100, 50), to: p(500, 50), distance: 4000, unit: .mm).metresPerPixel == 0.01)
        // An irrational length (948.6832980505138 px) falls back to the doubles' quotient.
        #expect(Calibration.twoPoints(from: p(0, 0), to: p(300, 900), distance: 9, unit: .m).metresPerPixel == 9 / 948.6832980505138)
        #expect(Calibration.exactQuotient([1], over: [0]) == nil)
        #expect(Calibration.exactQuotient([1e300], over: [3]) == nil)
    }
}
