// Ported from fdlibm 5.3 (e_pow.c, e_log.c, s_scalbn.c) as V8 carries it in src/base/ieee754.cc.
//
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

/// JavaScript's `Math.pow` and `Math.log`, bit for bit: a pure-Swift port of fdlibm's `__ieee754_pow`
/// and `__ieee754_log` as V8 uses them (`base::ieee754::legacy::pow`, and `log` up to V8 13.x).
///
/// Why: Leaflet's `CRS.Simple` scale is `Math.pow(2, zoom)` and its inverse is
/// `Math.log(scale) / Math.LN2`. The platform `pow`/`log` (glibc, Apple's libm) are correctly rounded
/// or nearly so, fdlibm is not always, so at fractional zooms they can differ from a browser in the
/// last bit. These functions give the browser's bits on every platform. Integer zooms are exact
/// either way.
///
/// Every operation below is the one of the C original, in the same order; the 32-bit words of a
/// `Double` are read and written through `bitPattern`. No allocation, no Foundation.
public enum FDLibm {
    // MARK: Words of a Double

    /// The high 32 bits (sign, exponent, top 20 fraction bits) as a signed C `int`.
    @inline(__always)
    static func high(_ value: Double) -> Int32 {
        Int32(truncatingIfNeeded: value.bitPattern >> 32)
    }

    /// The low 32 bits of the fraction.
    @inline(__always)
    static func low(_ value: Double) -> UInt32 {
        UInt32(truncatingIfNeeded: value.bitPattern)
    }

    /// `value` with its high word replaced (`SET_HIGH_WORD`).
    @inline(__always)
    static func settingHigh(_ value: Double, _ high: Int32) -> Double {
        Double(bitPattern: UInt64(UInt32(bitPattern: high)) << 32 | (value.bitPattern & 0xFFFF_FFFF))
    }

    /// `value` with its low word cleared (`SET_LOW_WORD(value, 0)`).
    @inline(__always)
    static func clearingLow(_ value: Double) -> Double {
        Double(bitPattern: value.bitPattern & 0xFFFF_FFFF_0000_0000)
    }

    /// The double whose high word is `high` and low word is zero (`INSERT_WORDS(d, high, 0)`).
    @inline(__always)
    static func fromHigh(_ high: Int32) -> Double {
        Double(bitPattern: UInt64(UInt32(bitPattern: high)) << 32)
    }

    // MARK: pow

    /// `x` raised to `y`, as JavaScript's `Math.pow(x, y)` and `x ** y` in V8 (Chrome, Node, Edge).
    ///
    /// JavaScript's special cases hold, where they differ from C99's `pow`: `pow(x, NaN)` is NaN for
    /// every `x` (so `pow(1, NaN)` is NaN, not 1), and `pow(±1, ±Infinity)` is NaN, not 1.
    /// `pow(x, ±0)` is 1 for every `x`, NaN included. Elsewhere the result is within 1 ulp of `x^y`
    /// and exact when `x^y` is representable and both are integers (so `pow(2, n)` is exact).
    /// - Complexity: O(1), no allocation.
    public static func pow(_ x: Double, _ y: Double) -> Double {
        // Constants, as decimal literals of the C source (Swift rounds literals correctly); the hex
        // words of fdlibm are in the comments.
        let two53 = 9007199254740992.0  // 0x43400000, 0x00000000
        let huge = 1.0e300
        let tiny = 1.0e-300
        // Polynomial coefficients for (3/2) * (log(x) - 2s - 2/3 * s^3).
        let L1 = 5.99999999999994648725e-01  // 0x3FE33333, 0x33333303
        let L2 = 4.28571428578550184252e-01  // 0x3FDB6DB6, 0xDB6FABFF
        let L3 = 3.33333329818377432918e-01  // 0x3FD55555, 0x518F264D
        let L4 = 2.72728123808534006489e-01  // 0x3FD17460, 0xA91D4101
        let L5 = 2.30660745775561754067e-01  // 0x3FCD864A, 0x93C9DB65
        let L6 = 2.06975017800338417784e-01  // 0x3FCA7E28, 0x4A454EEF
        let P1 = 1.66666666666666019037e-01  // 0x3FC55555, 0x5555553E
        let P2 = -2.77777777770155933842e-03  // 0xBF66C16C, 0x16BEBD93
        let P3 = 6.61375632143793436117e-05  // 0x3F11566A, 0xAF25DE2C
        let P4 = -1.65339022054652515390e-06  // 0xBEBBBD41, 0xC5D26BF1
        let P5 = 4.13813679705723846039e-08  // 0x3E663769, 0x72BEA4D0
        let lg2 = 6.93147180559945286227e-01  // 0x3FE62E42, 0xFEFA39EF
        let lg2_h = 6.93147182464599609375e-01  // 0x3FE62E43, 0x00000000
        let lg2_l = -1.90465429995776804525e-09  // 0xBE205C61, 0x0CA86C39
        let ovt = 8.0085662595372944372e-17  // -(1024 - log2(ovfl + .5ulp))
        let cp = 9.61796693925975554329e-01  // 0x3FEEC709, 0xDC3A03FD = 2 / (3 ln2)
        let cp_h = 9.61796700954437255859e-01  // 0x3FEEC709, 0xE0000000 = (float)cp
        let cp_l = -7.02846165095275826516e-09  // 0xBE3E2FE0, 0x145B01F5 = tail of cp_h
        let ivln2 = 1.44269504088896338700e+00  // 0x3FF71547, 0x652B82FE = 1 / ln2
        let ivln2_h = 1.44269502162933349609e+00  // 0x3FF71547, 0x60000000 = 24 bits of 1 / ln2
        let ivln2_l = 1.92596299112661746887e-08  // 0x3E54AE0B, 0xF85DDF44 = tail of 1 / ln2
        let dp_h1 = 5.84962487220764160156e-01  // 0x3FE2B803, 0x40000000 (dp_h[1]; dp_h[0] = 0)
        let dp_l1 = 1.35003920212974897128e-08  // 0x3E4CFDEB, 0x43CFD006 (dp_l[1]; dp_l[0] = 0)

        let hx = high(x), lx = low(x)
        let hy = high(y), ly = low(y)
        var ix = hx & 0x7FFF_FFFF
        let iy = hy & 0x7FFF_FFFF

        // y == ±0: x ** 0 = 1, even for NaN.
        if UInt32(bitPattern: iy) | ly == 0 { return 1 }

        // x or y NaN: NaN (JavaScript: 1 ** NaN is NaN too).
        if ix > 0x7FF0_0000 || (ix == 0x7FF0_0000 && lx != 0) || iy > 0x7FF0_0000
            || (iy == 0x7FF0_0000 && ly != 0)
        {
            return x + y
        }

        // When x < 0, is y an odd integer (1), an even integer (2) or not an integer (0)?
        var yisint: Int32 = 0
        if hx < 0 {
            if iy >= 0x4340_0000 {
                yisint = 2  // |y| >= 2^53: an even integer
            } else if iy >= 0x3FF0_0000 {
                let k = (iy &>> 20) - 0x3FF  // unbiased exponent
                if k > 20 {
                    let j = Int32(bitPattern: ly &>> UInt32(52 - k))
                    if j &<< (52 - k) == Int32(bitPattern: ly) { yisint = 2 - (j & 1) }
                } else if ly == 0 {
                    let j = iy &>> (20 - k)
                    if j &<< (20 - k) == iy { yisint = 2 - (j & 1) }
                }
            }
        }

        // Special values of y.
        if ly == 0 {
            if iy == 0x7FF0_0000 {  // y is ±Infinity
                if UInt32(bitPattern: ix &- 0x3FF0_0000) | lx == 0 {
                    return y - y  // (±1) ** ±Infinity is NaN (JavaScript, unlike C99)
                } else if ix >= 0x3FF0_0000 {  // (|x| > 1) ** ±Infinity = Infinity, +0
                    return hy >= 0 ? y : 0
                } else {  // (|x| < 1) ** ±Infinity = +0, Infinity
                    return hy < 0 ? -y : 0
                }
            }
            if iy == 0x3FF0_0000 {  // y is ±1
                return hy < 0 ? 1 / x : x
            }
            if hy == 0x4000_0000 { return x * x }  // y is 2
            if hy == 0x3FE0_0000 && hx >= 0 {  // y is 0.5 and x >= +0
                return x.squareRoot()
            }
        }

        var ax = abs(x)
        // Special values of x: ±0, ±Infinity, ±1.
        if lx == 0 {
            if ix == 0x7FF0_0000 || ix == 0 || ix == 0x3FF0_0000 {
                var z = ax
                if hy < 0 { z = 1 / z }  // z = 1 / |x|
                if hx < 0 {
                    if (ix &- 0x3FF0_0000) | yisint == 0 {
                        z = .nan  // (-1) ** non-integer is NaN
                    } else if yisint == 1 {
                        z = -z  // (x < 0) ** odd = -(|x| ** odd)
                    }
                }
                return z
            }
        }

        var n = (hx &>> 31) + 1

        // (x < 0) ** non-integer is NaN.
        if n | yisint == 0 { return .nan }

        var s = 1.0  // the sign of the result: -1 for (negative) ** (odd integer)
        if n | (yisint - 1) == 0 { s = -1 }

        var t1: Double
        var t2: Double
        if iy > 0x41E0_0000 {  // |y| > 2^31
            if iy > 0x43F0_0000 {  // |y| > 2^64: must overflow or underflow
                if ix <= 0x3FEF_FFFF { return hy < 0 ? huge * huge : tiny * tiny }
                if ix >= 0x3FF0_0000 { return hy > 0 ? huge * huge : tiny * tiny }
            }
            // Overflow or underflow if x is not close to one.
            if ix < 0x3FEF_FFFF { return hy < 0 ? s * huge * huge : s * tiny * tiny }
            if ix > 0x3FF0_0000 { return hy > 0 ? s * huge * huge : s * tiny * tiny }
            // Now |1 - x| <= 2^-20: log(x) by x - x^2/2 + x^3/3 - x^4/4.
            let t = ax - 1  // t has 20 trailing zeros
            let w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
            let u = ivln2_h * t  // ivln2_h has 21 significant bits
            let v = t * ivln2_l - w * ivln2
            t1 = clearingLow(u + v)
            t2 = v - (t1 - u)
        } else {
            n = 0
            // Subnormal x.
            if ix < 0x0010_0000 {
                ax *= two53
                n -= 53
                ix = high(ax)
            }
            n += (ix &>> 20) - 0x3FF
            let j = ix & 0x000F_FFFF
            // Determine the interval.
            ix = j | 0x3FF0_0000  // normalise ix
            var k: Int32
            if j <= 0x3988E {
                k = 0  // |x| < sqrt(3/2)
            } else if j < 0xBB67A {
                k = 1  // |x| < sqrt(3)
            } else {
                k = 0
                n += 1
                ix -= 0x0010_0000
            }
            ax = settingHigh(ax, ix)
            let bp = k == 0 ? 1.0 : 1.5
            let dp_h = k == 0 ? 0.0 : dp_h1
            let dp_l = k == 0 ? 0.0 : dp_l1

            // ss = s_h + s_l = (x - 1) / (x + 1) or (x - 1.5) / (x + 1.5).
            var u = ax - bp
            var v = 1 / (ax + bp)
            let ss = u * v
            let s_h = clearingLow(ss)
            // t_h = ax + bp, high part.
            var t_h = fromHigh(((ix &>> 1) | 0x2000_0000) + 0x0008_0000 + (k &<< 18))
            var t_l = ax - (t_h - bp)
            let s_l = v * ((u - s_h * t_h) - s_h * t_l)
            // log(ax).
            var s2 = ss * ss
            var r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))))
            r += s_l * (s_h + ss)
            s2 = s_h * s_h
            t_h = clearingLow(3.0 + s2 + r)
            t_l = r - ((t_h - 3.0) - s2)
            // u + v = ss * (1 + ...).
            u = s_h * t_h
            v = s_l * t_h + t_l * ss
            // 2 / (3 log2) * (ss + ...).
            let p_h = clearingLow(u + v)
            let p_l = v - (p_h - u)
            let z_h = cp_h * p_h  // cp_h + cp_l = 2 / (3 log2)
            let z_l = cp_l * p_h + p_l * cp + dp_l
            // log2(ax) = (ss + ...) * 2 / (3 log2) = n + dp_h + z_h + z_l.
            let t = Double(n)
            t1 = clearingLow(((z_h + z_l) + dp_h) + t)
            t2 = z_l - (((t1 - t) - dp_h) - z_h)
        }

        // Split y into y1 + y2 and compute (y1 + y2) * (t1 + t2).
        let y1 = clearingLow(y)
        let p_l = (y - y1) * t1 + y * t2
        var p_h = y1 * t1
        var z = p_l + p_h
        var j = high(z)
        var i = Int32(bitPattern: low(z))
        if j >= 0x4090_0000 {  // z >= 1024
            if (j &- 0x4090_0000) | i != 0 {  // z > 1024
                return s * huge * huge  // overflow
            } else if p_l + ovt > z - p_h {
                return s * huge * huge  // overflow
            }
        } else if j & 0x7FFF_FFFF >= 0x4090_CC00 {  // z <= -1075
            if (UInt32(bitPattern: j) &- 0xC090_CC00) | UInt32(bitPattern: i) != 0 {  // z < -1075
                return s * tiny * tiny  // underflow
            } else if p_l <= z - p_h {
                return s * tiny * tiny  // underflow
            }
        }

        // 2 ** (p_h + p_l).
        i = j & 0x7FFF_FFFF
        var k = (i &>> 20) - 0x3FF
        n = 0
        if i > 0x3FE0_0000 {  // |z| > 0.5: n = [z + 0.5]
            n = j &+ (0x0010_0000 &>> (k + 1))
            k = ((n & 0x7FFF_FFFF) &>> 20) - 0x3FF  // the new k for n
            let t = fromHigh(n & ~(0x000F_FFFF &>> k))
            n = ((n & 0x000F_FFFF) | 0x0010_0000) &>> (20 - k)
            if j < 0 { n = -n }
            p_h -= t
        }
        var t = clearingLow(p_l + p_h)
        let u = t * lg2_h
        let v = (p_l - (t - p_h)) * lg2 + t * lg2_l
        z = u + v
        let w = v - (z - u)
        t = z * z
        t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))))
        let r = (z * t1) / ((t1 - 2.0) - (w + z * w))
        z = 1.0 - (r - z)
        j = high(z)
        j = j &+ (n &<< 20)
        if j &>> 20 <= 0 {
            z = scalbn(z, n)  // subnormal result
        } else {
            z = settingHigh(z, high(z) &+ (n &<< 20))
        }
        return s * z
    }

    /// `x * 2^n`, rounded once, as C's `scalbn` (fdlibm's s_scalbn.c).
    /// - Complexity: O(1).
    static func scalbn(_ x: Double, _ n: Int32) -> Double {
        let two54 = 1.80143985094819840000e+16  // 0x43500000, 0x00000000
        let twom54 = 5.55111512312578270212e-17  // 0x3C900000, 0x00000000
        let huge = 1.0e300
        let tiny = 1.0e-300
        var x = x
        var hx = high(x)
        var k = (hx & 0x7FF0_0000) &>> 20  // the exponent
        if k == 0 {  // 0 or subnormal x
            if low(x) | UInt32(bitPattern: hx & 0x7FFF_FFFF) == 0 { return x }  // ±0
            x *= two54
            hx = high(x)
            k = ((hx & 0x7FF0_0000) &>> 20) - 54
            if n < -50000 { return tiny * x }  // underflow
        }
        if k == 0x7FF { return x + x }  // NaN or Infinity
        k = k &+ n
        let signAndFraction = hx & Int32(bitPattern: 0x800F_FFFF)
        if k > 0x7FE { return huge * (x.sign == .minus ? -huge : huge) }  // overflow
        if k > 0 { return settingHigh(x, signAndFraction | (k &<< 20)) }  // normal result
        if k <= -54 {
            if n > 50000 { return huge * (x.sign == .minus ? -huge : huge) }  // overflow in n + k
            return tiny * (x.sign == .minus ? -tiny : tiny)  // underflow
        }
        k += 54  // subnormal result
        x = settingHigh(x, signAndFraction | (k &<< 20))
        return x * twom54
    }

    // MARK: log

    /// The natural logarithm, as JavaScript's `Math.log(x)` in V8 up to 13.x (Node 20 to 24, Chrome
    /// until early 2026): fdlibm's `__ieee754_log`, under 1 ulp of error.
    ///
    /// `log(±0)` is -Infinity, `log(x < 0)` and `log(NaN)` are NaN, `log(Infinity)` is Infinity,
    /// `log(1)` is +0.
    /// - Complexity: O(1), no allocation.
    public static func log(_ x: Double) -> Double {
        let ln2_hi = 6.93147180369123816490e-01  // 0x3FE62E42, 0xFEE00000
        let ln2_lo = 1.90821492927058770002e-10  // 0x3DEA39EF, 0x35793C76
        let two54 = 1.80143985094819840000e+16  // 0x43500000, 0x00000000
        let Lg1 = 6.666666666666735130e-01  // 0x3FE55555, 0x55555593
        let Lg2 = 3.999999999940941908e-01  // 0x3FD99999, 0x9997FA04
        let Lg3 = 2.857142874366239149e-01  // 0x3FD24924, 0x94229359
        let Lg4 = 2.222219843214978396e-01  // 0x3FCC71C5, 0x1D8E78AF
        let Lg5 = 1.818357216161805012e-01  // 0x3FC74664, 0x96CB03DE
        let Lg6 = 1.531383769920937332e-01  // 0x3FC39A09, 0xD078C69F
        let Lg7 = 1.479819860511658591e-01  // 0x3FC2F112, 0xDF3E5244

        var x = x
        var hx = high(x)
        let lx = low(x)

        var k: Int32 = 0
        if hx < 0x0010_0000 {  // x < 2^-1022
            if UInt32(bitPattern: hx & 0x7FFF_FFFF) | lx == 0 { return -.infinity }  // log(±0)
            if hx < 0 { return .nan }  // log(negative)
            k -= 54
            x *= two54  // subnormal: scale x up
            hx = high(x)
        }
        if hx >= 0x7FF0_0000 { return x + x }  // Infinity or NaN
        k += (hx &>> 20) - 1023
        hx &= 0x000F_FFFF
        var i = (hx + 0x95F64) & 0x10_0000
        x = settingHigh(x, hx | (i ^ 0x3FF0_0000))  // normalise x or x / 2
        k += i &>> 20
        let f = x - 1.0
        if 0x000F_FFFF & (2 + hx) < 3 {  // -2^-20 <= f < 2^-20
            if f == 0 {
                if k == 0 { return 0 }
                let dk = Double(k)
                return dk * ln2_hi + dk * ln2_lo
            }
            let R = f * f * (0.5 - 0.33333333333333333 * f)
            if k == 0 { return f - R }
            let dk = Double(k)
            return dk * ln2_hi - ((R - dk * ln2_lo) - f)
        }
        let s = f / (2.0 + f)
        let dk = Double(k)
        let z = s * s
        i = hx - 0x6147A
        let w = z * z
        let j = 0x6B851 - hx
        let t1 = w * (Lg2 + w * (Lg4 + w * Lg6))
        let t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)))
        i |= j
        let R = t2 + t1
        if i > 0 {
            let hfsq = 0.5 * f * f
            if k == 0 { return f - (hfsq - s * (hfsq + R)) }
            return dk * ln2_hi - ((hfsq - (s * (hfsq + R) + dk * ln2_lo)) - f)
        }
        if k == 0 { return f - s * (f - R) }
        return dk * ln2_hi - ((s * (f - R) - dk * ln2_lo) - f)
    }
}
