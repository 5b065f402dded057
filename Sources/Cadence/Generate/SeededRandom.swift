//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small, fast, deterministic pseudo-random number generator: xoshiro256** seeded through
/// SplitMix64.
///
/// The same seed always produces the same sequence, on every run and every platform, which is
/// what the synthetic-data generator needs to produce byte-identical output. It is not suitable
/// for cryptography.
///
///     var random = SeededRandom(seed: 42)
///     let roll = random.integer(in: 1...6)
///     let height = random.normal(mean: 1.75, standardDeviation: 0.07)
///
/// The helpers below (``unitDouble()``, `integer(in:)`, ``normal(mean:standardDeviation:)``, …) are
/// defined here rather than taken from the standard library's `random(in:using:)`, whose exact
/// algorithms are not promised to stay the same between Swift releases.
///
/// - Complexity: Every draw is O(1) and allocation-free.
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state0: UInt64
    private var state1: UInt64
    private var state2: UInt64
    private var state3: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    ///
    /// The 256-bit state is filled from SplitMix64 started at `seed`, so nearby seeds (0, 1, 2)
    /// still give unrelated sequences, and the state is never all zeros.
    ///
    /// - Parameter seed: Any 64-bit value.
    public init(seed: UInt64) {
        var mixer = seed
        state0 = SeededRandom.splitMix64(&mixer)
        state1 = SeededRandom.splitMix64(&mixer)
        state2 = SeededRandom.splitMix64(&mixer)
        state3 = SeededRandom.splitMix64(&mixer)
    }

    /// Creates a generator for one numbered stream of a seed, such as one day of generated data.
    ///
    /// Streams of the same seed are independent of each other, so a caller can produce stream
    /// *k* without drawing the values of streams 0 ..< *k* first.
    ///
    /// - Parameters:
    ///   - seed: The overall seed.
    ///   - stream: The stream's number.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
        self.init(seed: SeededRandom.splitMix64(&mixer) ^ stream)
    }

    /// One SplitMix64 step: advances `state` and returns the next mixed value.
    ///
    /// - Parameter state: The SplitMix64 state, advanced by the golden-ratio increment.
    /// - Returns: A well-mixed 64-bit value.
    @inline(__always)
    public static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    @inline(__always)
    private static func rotateLeft(_ value: UInt64, _ amount: UInt64) -> UInt64 {
        (value << amount) | (value >> (64 - amount))
    }

    /// The next 64 random bits (xoshiro256**).
    ///
    /// - Returns: A uniformly distributed 64-bit value.
    @inline(__always)
    public mutating func next() -> UInt64 {
        let result = SeededRandom.rotateLeft(state1 &* 5, 7) &* 9
        let shifted = state1 << 17
        state2 ^= state0
        state3 ^= state1
        state1 ^= state2
        state0 ^= state3
        state2 ^= shifted
        state3 = SeededRandom.rotateLeft(state3, 45)
        return result
    }

    /// A uniformly distributed `Double` in `0 ..< 1`, with 53 random bits.
    ///
    /// - Returns: A value `x` with `0 <= x < 1`.
    @inline(__always)
    public mutating func unitDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniformly distributed `Double` in `range` (the upper bound is never returned unless the
    /// range is empty).
    ///
    /// - Parameter range: The bounds; `lowerBound` may equal `upperBound`.
    /// - Returns: A value in `range.lowerBound ..< range.upperBound`, or `lowerBound` for an empty range.
    @inline(__always)
    public mutating func uniform(in range: Range<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unitDouble()
    }

    /// A uniformly distributed integer in `0 ..< bound`, by Lemire's multiply-and-shift method
    /// with rejection, so there is no modulo bias.
    ///
    /// - Parameter bound: The exclusive upper bound; a bound of zero returns zero.
    /// - Returns: A value in `0 ..< bound`.
    @inline(__always)
    public mutating func below(_ bound: UInt64) -> UInt64 {
        guard bound > 0 else { return 0 }
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// A uniformly distributed integer in `range`.
    ///
    /// - Parameter range: The closed range to draw from.
    /// - Returns: A value in `range`.
    @inline(__always)
    public mutating func integer(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound))
        if width == UInt64.max { return Int(truncatingIfNeeded: next()) }
        return range.lowerBound &+ Int(truncatingIfNeeded: below(width &+ 1))
    }

    /// A uniformly distributed 64-bit integer in `range`, for microsecond timestamps.
    ///
    /// - Parameter range: The closed range to draw from.
    /// - Returns: A value in `range`.
    @inline(__always)
    public mutating func integer(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        if width == UInt64.max { return Int64(bitPattern: next()) }
        return range.lowerBound &+ Int64(bitPattern: below(width &+ 1))
    }

    /// `true` with the given probability.
    ///
    /// - Parameter probability: The chance of `true`, from 0 (never) to 1 (always).
    /// - Returns: Whether the event happened.
    @inline(__always)
    public mutating func chance(_ probability: Double) -> Bool {
        unitDouble() < probability
    }

    /// A normally distributed value, by the Box–Muller transform.
    ///
    /// Each call uses two uniform draws and returns one of the pair Box–Muller produces, so the
    /// generator's state stays a plain value with nothing cached between calls.
    ///
    /// - Parameters:
    ///   - mean: The distribution's mean.
    ///   - standardDeviation: The distribution's standard deviation (zero returns `mean`).
    /// - Returns: A draw from N(`mean`, `standardDeviation`²).
    public mutating func normal(mean: Double = 0, standardDeviation: Double = 1) -> Double {
        // 1 - u is in (0, 1], so the logarithm is finite.
        let radius = (-2 * log(1 - unitDouble())).squareRoot()
        let angle = 2 * Double.pi * unitDouble()
        return mean + standardDeviation * radius * cos(angle)
    }

    /// A cheap, bell-shaped value in `-1 ... 1`: the mean of three uniform draws, rescaled.
    ///
    /// Its standard deviation is 1/3. It needs no logarithm or cosine, so inner loops that
    /// run once per generated sample use it instead of ``normal(mean:standardDeviation:)``.
    ///
    /// - Returns: A value in `-1 ... 1`, most often near 0.
    @inline(__always)
    public mutating func bell() -> Double {
        let first = Double(next() >> 11)
        let second = Double(next() >> 11)
        let third = Double(next() >> 11)
        return (first + second + third) * (0x1.0p-53 * 2.0 / 3.0) - 1
    }
}
