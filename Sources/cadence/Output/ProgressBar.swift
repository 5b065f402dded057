//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Synchronization

/// A one-line progress bar on standard error: bytes, records, rate and ETA for `cadence import`,
/// users done for `cadence batch`.
///
///     [##########----------]  48%  12.1/25.3 MB  61,000 records  40,210/s  ETA 0:03
///     [##########----------]  48%  480 of 1,000 users  2 failed  120 users/s  ETA 0:04
///
/// It draws only when standard error is a terminal, at most ten times a second, and is safe to
/// update from the importer's thread.
final class ProgressBar: Sendable {
    /// When the bar started and was last drawn.
    private struct State {
        var started: ContinuousClock.Instant
        var lastDrawn: ContinuousClock.Instant?
        var isVisible = false
    }

    private let label: String
    private let isEnabled: Bool
    private let state: Mutex<State>

    /// Creates a bar for one file; it draws nothing unless standard error is a terminal.
    init(label: String, enabled: Bool = StandardStreams.isErrorTerminal) {
        self.label = label
        self.isEnabled = enabled
        self.state = Mutex(State(started: ContinuousClock.now))
    }

    /// Redraws the bar for `progress`, unless it was drawn less than 100 ms ago.
    func update(_ progress: ImportProgress) {
        draw { elapsed in Self.line(label: label, progress: progress, elapsed: elapsed) }
    }

    /// Redraws the bar for `completed` of `total` items (`failed` of them failed), unless it was
    /// drawn less than 100 ms ago; `resumed` of the completed ones were done by an earlier run.
    func update(completed: Int, resumed: Int, failed: Int, of total: Int, items: String) {
        draw { elapsed in
            Self.line(completed: completed, resumed: resumed, failed: failed, of: total, items: items, elapsed: elapsed)
        }
    }

    /// Draws the line `makeLine` gives for the time elapsed, at most ten times a second.
    private func draw(_ makeLine: (Duration) -> String) {
        guard isEnabled else { return }
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            if let last = state.lastDrawn, now - last < .milliseconds(100) { return nil }
            state.lastDrawn = now
            state.isVisible = true
            return makeLine(now - state.started)
        }
        if let line { StandardStreams.writeErrorText("\r\u{1B}[K" + TerminalText.escaped(line)) }
    }

    /// Erases the bar so that a message prints on a clean line; the next update draws it again.
    func clear() {
        finish()
        state.withLock { $0.lastDrawn = nil }
    }

    /// Erases the bar so that the summary prints on a clean line.
    func finish() {
        guard isEnabled else { return }
        let wasVisible = state.withLock { state in
            defer { state.isVisible = false }
            return state.isVisible
        }
        if wasVisible { StandardStreams.writeErrorText("\r\u{1B}[K") }
    }

    /// The bar's text.
    static func line(label: String, progress: ImportProgress, elapsed: Duration) -> String {
        let seconds = Self.seconds(elapsed)
        let rate = Double(progress.records) / seconds
        var parts: [String] = [label]
        if let total = progress.totalBytes, total > 0 {
            let fraction = min(1, Double(progress.bytesRead) / Double(total))
            parts += bar(fraction)
            parts.append(ByteCountText.format(progress.bytesRead) + " of " + ByteCountText.format(total))
            parts.append(NumberText.grouped(progress.records) + " records")
            parts.append(NumberText.grouped(Int(rate)) + "/s")
            parts += estimate(fraction: fraction, seconds: seconds)
        } else {
            parts.append(ByteCountText.format(progress.bytesRead))
            parts.append(NumberText.grouped(progress.records) + " records")
            parts.append(NumberText.grouped(Int(rate)) + "/s")
        }
        return parts.joined(separator: "  ")
    }

    /// The bar's text for items done: the rate counts only the items done by this run.
    static func line(completed: Int, resumed: Int, failed: Int, of total: Int, items: String,
                     elapsed: Duration) -> String {
        let seconds = Self.seconds(elapsed)
        let fraction = total > 0 ? min(1, Double(completed) / Double(total)) : 1
        var parts = bar(fraction)
        parts.append(NumberText.grouped(completed) + " of " + NumberText.grouped(total) + " " + items)
        if failed > 0 { parts.append(NumberText.grouped(failed) + " failed") }
        let rate = Double(completed - resumed) / seconds
        parts.append(NumberText.grouped(Int(rate)) + " " + items + "/s")
        if rate > 0 { parts.append("ETA " + NumberText.clock(Double(total - completed) / rate)) }
        return parts.joined(separator: "  ")
    }

    /// `elapsed` in seconds, at least a millisecond (rates divide by it).
    private static func seconds(_ elapsed: Duration) -> Double {
        max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, 0.001)
    }

    /// Twenty cells filled in proportion to `fraction`, and the percentage.
    private static func bar(_ fraction: Double) -> [String] {
        let filled = Int((fraction * 20).rounded(.down))
        return ["[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled) + "]",
                NumberText.fixed(fraction * 100, decimals: 0) + "%"]
    }

    /// The time left at the rate so far, once anything is done.
    private static func estimate(fraction: Double, seconds: Double) -> [String] {
        guard fraction > 0 else { return [] }
        return ["ETA " + NumberText.clock(seconds * (1 - fraction) / fraction)]
    }
}
