//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence info`: what a store holds per type and what it costs on disk.
///
///     cadence info --store health
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show, per type, the samples, sources, time span, chunks and bytes on disk of a store.",
        discussion: """
            Figures come from the manifest's chunk summaries: no chunk is decompressed. Chunk files \
            of an older format version are counted from their headers; `cadence upgrade` rewrites them.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("The IANA time zone dates are printed in (default: the host's).", valueName: "zone"))
    var timeZone: String?

    @OptionGroup var output: ReportFormatOptions

    func validate() throws {
        try output.validate(in: "info")
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let zone = try ArgumentValues.timeZone(timeZone)
        let info = try store.info()
        // Unknown (nil) when a chunk list or header is damaged: `cadence verify` reports that.
        let outdated = try? store.outdatedChunkFiles()
        output.write(json: { Self.json(info, outdatedChunks: outdated, timeZone: zone) },
                     table: { $0.write(Self.table(info, outdatedChunks: outdated, timeZone: zone)) })
    }

    /// Bytes per sample over the whole store (flushed samples only), or `nil` with none flushed:
    /// weighted as each type's figure is, by the rows its chunks hold (a series entry is one).
    private static func bytesPerSample(_ info: StoreInfo) -> Double? {
        let flushed = info.types.reduce(0.0) { total, type in
            total + (type.bytesPerSample.map { Double(type.bytesOnDisk) / $0 } ?? 0)
        }
        return flushed > 0 ? Double(info.totalChunkBytes) / flushed.rounded() : nil
    }

    static func json(_ info: StoreInfo, outdatedChunks: Int?, timeZone: TimeZone) -> JSONValue {
        func date(_ date: Date?) -> JSONValue { .string(date.map { formatRFC3339($0.timestamp, timeZone: timeZone) }) }
        return .object([
            ("path", .string(info.path)),
            ("storeIdentifier", .string(info.storeIdentifier.uuidString.lowercased())),
            ("lastSequence", .integer(Int(info.lastSequence))),
            ("types", .array(info.types.map { type in
                .object([
                    ("type", .string(type.identifier)),
                    ("kind", .string(type.kind.rawValue)),
                    ("unit", .string(type.unit)),
                    ("samples", .integer(type.samples)),
                    ("seriesSamples", .integer(type.seriesSamples)),
                    ("seriesEntries", .integer(type.seriesEntries)),
                    ("sources", .array(type.sources.map { .string($0) })),
                    ("firstStart", date(type.firstStart)),
                    ("lastEnd", date(type.lastEnd)),
                    ("chunks", .integer(type.chunks)),
                    ("bytesOnDisk", .integer(type.bytesOnDisk)),
                    ("unflushedSamples", .integer(type.unflushedSamples)),
                    ("bytesPerSample", .number(type.bytesPerSample)),
                ])
            })),
            ("totals", .object([
                ("types", .integer(info.types.count)),
                ("samples", .integer(info.totalSamples)),
                ("sources", .integer(Set(info.types.flatMap(\.sources)).count)),
                ("chunks", .integer(info.types.reduce(0) { $0 + $1.chunks })),
                ("chunkBytes", .integer(info.totalChunkBytes)),
                ("metadataBytes", .integer(info.metadataBytes)),
                ("bytesOnDisk", .integer(info.totalChunkBytes + info.metadataBytes)),
                ("bytesPerSample", .number(bytesPerSample(info))),
                ("deletedObjects", .integer(info.deletedObjects)),
                ("outdatedChunks", outdatedChunks.map { .integer($0) } ?? .null),
            ])),
        ])
    }

    static func table(_ info: StoreInfo, outdatedChunks: Int?, timeZone: TimeZone) -> String {
        func day(_ date: Date?) -> String {
            date.map { LocalDateText.format($0, timeZone: timeZone, showsTime: false) } ?? "-"
        }
        var table = TableRenderer(columns: [
            .init("Type"), .init("Kind"), .init("Unit"), .init("Samples", alignment: .right), .init("Sources", alignment: .right),
            .init("First"), .init("Last"), .init("Chunks", alignment: .right), .init("On disk", alignment: .right),
            .init("Bytes/sample", alignment: .right),
        ])
        for type in info.types {
            // Activity summaries are days without a zone, kept as UTC-midnight intervals: their
            // first and last days are those intervals' dates, the last one ending at the next midnight.
            let (first, last) = type.kind == .activitySummary
                ? (type.firstStart.flatMap { ActivityDay(date: $0) }?.description ?? "-",
                   type.lastEnd.flatMap { ActivityDay(date: $0.addingTimeInterval(-1)) }?.description ?? "-")
                : (day(type.firstStart), day(type.lastEnd))
            table.append([
                shortName(of: type), type.kind.rawValue, type.unit ?? "-", String(type.samples), String(type.sources.count), first,
                last, String(type.chunks), ByteCountText.format(type.bytesOnDisk),
                type.bytesPerSample.map { NumberText.fixed($0, decimals: 1) } ?? "-",
            ])
        }
        let firstStart = info.types.compactMap(\.firstStart).min()
        let lastEnd = info.types.compactMap(\.lastEnd).max()
        table.append([
            "total", "", "", String(info.totalSamples), String(Set(info.types.flatMap(\.sources)).count), day(firstStart),
            day(lastEnd), String(info.types.reduce(0) { $0 + $1.chunks }), ByteCountText.format(info.totalChunkBytes),
            bytesPerSample(info).map { NumberText.fixed($0, decimals: 1) } ?? "-",
        ])
        var text = "Store \(TerminalText.escaped(info.path)) (\(info.storeIdentifier.uuidString.lowercased()))\n"
        text += table.render()
        // Series samples count once each in Samples; their entries are said here.
        for type in info.types where type.seriesSamples > 0 {
            text += "\(TerminalText.escaped(shortName(of: type))): \(type.seriesSamples) series samples with \(type.seriesEntries) entries\n"
        }
        text += "Manifest and log: \(ByteCountText.format(info.metadataBytes)); "
        text += "deleted objects retained: \(info.deletedObjects); last change: \(info.lastSequence)\n"
        if let outdatedChunks, outdatedChunks > 0 {
            let chunks = info.types.reduce(0) { $0 + $1.chunks }
            text += "\(outdatedChunks) of \(chunks) chunk files are of an older format version than "
            text += "\(HealthStore.formatVersion); `cadence upgrade` rewrites them in the current one.\n"
        }
        return text
    }

    /// The name a type goes by on the command line (`stepCount`, `sleepAnalysis`, `workout`), or
    /// its identifier for a type Cadence does not know.
    private static func shortName(of type: StoreInfo.TypeInfo) -> String {
        switch type.kind {
        case .quantity: QuantityType.known(type.identifier)?.shortIdentifier ?? type.identifier
        case .category: CategoryType.known(type.identifier)?.shortIdentifier ?? type.identifier
        case .correlation: CorrelationType(identifier: type.identifier).shortIdentifier
        case .workout: ArgumentValues.workoutTypeName
        case .activitySummary: ArgumentValues.activitySummaryTypeName
        case .document: "documents"
        case .clinicalRecord: ClinicalType(identifier: type.identifier)?.rawValue ?? type.identifier
        }
    }
}
