//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Synchronization

/// A one-line progress bar on standard error for `cadence import`: bytes, records, rate and ETA.
///
///     [##########----------]  48%  12.1/25.3 MB  61,000 records  40,210/s  ETA 0:03
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
        guard isEnabled else { return }
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            if let last = state.lastDrawn, now - last < .milliseconds(100) { return nil }
            state.lastDrawn = now
            state.isVisible = true
            return Self.line(label: label, progress: progress, elapsed: now - state.started)
        }
        if let line { StandardStreams.writeErrorText("\r\u{1B}[K" + line) }
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
        let seconds = max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, 0.001)
        let rate = Double(progress.records) / seconds
        var parts: [String] = [label]
        if let total = progress.totalBytes, total > 0 {
            let fraction = min(1, Double(progress.bytesRead) / Double(total))
            let filled = Int((fraction * 20).rounded(.down))
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled) + "]")
            parts.append(NumberText.fixed(fraction * 100, decimals: 0) + "%")
            parts.append(ByteCountText.format(progress.bytesRead) + " of " + ByteCountText.format(total))
            parts.append(NumberText.grouped(progress.records) + " records")
            parts.append(NumberText.grouped(Int(rate)) + "/s")
            if fraction > 0 {
                let remaining = seconds * (1 - fraction) / fraction
                parts.append("ETA " + NumberText.clock(remaining))
            }
        } else {
            parts.append(ByteCountText.format(progress.bytesRead))
            parts.append(NumberText.grouped(progress.records) + " records")
            parts.append(NumberText.grouped(Int(rate)) + "/s")
        }
        return parts.joined(separator: "  ")
    }
}
