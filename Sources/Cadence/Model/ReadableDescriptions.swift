//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

// One line a sample, for logs and `print`: the type's short name, the value with its unit, the
// dates (UTC), the source and the UUID — the fields a person reads first, not every stored one.

extension QuantitySample: CustomStringConvertible {
    /// `heartRate 72 count/min, 2024-05-01T10:00:00Z, Watch (10.1), <UUID>`.
    public var description: String {
        ReadableDescription.line(
            "\(quantityType.shortIdentifier) \(ReadableDescription.number(value)) \(quantityType.canonicalUnit)",
            start: startDate, end: endDate, source: source, sourceVersion: sourceVersion, metadata: metadata, uuid: uuid)
    }
}

extension CategorySample: CustomStringConvertible {
    /// `sleepAnalysis asleepCore, 2024-05-01T23:00:00Z – 2024-05-02T01:00:00Z, Watch, <UUID>`.
    public var description: String {
        ReadableDescription.line("\(categoryType.shortIdentifier) \(categoryValue.shortName)", start: startDate,
                                 end: endDate, source: source, sourceVersion: sourceVersion, metadata: metadata, uuid: uuid)
    }
}

extension Correlation: CustomStringConvertible {
    /// `bloodPressure [bloodPressureSystolic 120 mmHg; bloodPressureDiastolic 80 mmHg], <dates>, Cuff, <UUID>`.
    public var description: String {
        let members = objects.map { "\($0.quantityType.shortIdentifier) \(ReadableDescription.number($0.value)) \($0.quantityType.canonicalUnit)" }
        return ReadableDescription.line("\(correlationType.shortIdentifier) [\(members.joined(separator: "; "))]",
                                        start: startDate, end: endDate, source: source, sourceVersion: sourceVersion,
                                        metadata: metadata, uuid: uuid)
    }
}

extension Workout: CustomStringConvertible {
    /// `running 2700 s, 10200 m, 620 kcal, <dates>, Watch, <UUID>`, with the events, statistics and
    /// routes counted.
    public var description: String {
        var head = "\(activityType.shortName) \(ReadableDescription.number(duration)) s"
        if let totalDistance { head += ", \(ReadableDescription.number(totalDistance)) m" }
        if let totalEnergyBurned { head += ", \(ReadableDescription.number(totalEnergyBurned)) kcal" }
        let parts = [(events.count, "events"), (statistics.count, "statistics"), (routes.count, "routes")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if !parts.isEmpty { head += " (\(parts.joined(separator: ", ")))" }
        return ReadableDescription.line(head, start: startDate, end: endDate, source: source,
                                        sourceVersion: sourceVersion, metadata: metadata, uuid: uuid)
    }
}

/// The pieces the readable descriptions share.
enum ReadableDescription {
    /// `head, dates, source (version), {metadata}, UUID`.
    static func line(_ head: String, start: Date, end: Date, source: Source, sourceVersion: String?,
                     metadata: [String: String], uuid: UUID) -> String {
        var parts = [head, dates(start, end), sourceVersion.map { "\(source.name) (\($0))" } ?? source.name]
        if !metadata.isEmpty {
            parts.append("{" + metadata.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}")
        }
        parts.append(uuid.uuidString)
        return parts.joined(separator: ", ")
    }

    /// One instant, or `start – end`, in RFC 3339 at UTC.
    static func dates(_ start: Date, _ end: Date) -> String {
        let utc = TimeZone(secondsFromGMT: 0) ?? .current
        let first = formatRFC3339(start.timestamp, timeZone: utc)
        return start == end ? first : "\(first) – \(formatRFC3339(end.timestamp, timeZone: utc))"
    }

    /// A number without a trailing `.0`: `72`, `0.95`.
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
