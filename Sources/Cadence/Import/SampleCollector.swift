//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// A little longer than most files on purpose: every record kind (quantity, category, correlation,
// workout) passes the same normalisation here — units, identity, validation, counting — and one
// place keeps those rules alike for all of them.

import Foundation

/// Turns the records of one file into sample batches, one per type: parses dates and numbers,
/// converts values to each type's canonical unit, validates them, and counts or rejects what it
/// does not store.
///
/// A collector belongs to one thread. Parallel reading gives each segment of a file a
/// ``segmentCopy()`` — the same caches, nothing collected — and ``absorb(_:)``s the copies in
/// file order, which yields the batches one collector would have built alone.
struct SampleCollector {
    /// The store, for the units of unknown types stored earlier.
    let store: HealthStore
    /// Whether records are only checked, not collected.
    let dryRun: Bool
    /// Rejections and the counts of records not stored; `imported` and `duplicates` are the
    /// caller's, who saves the batches.
    var summary: ImportSummary
    /// The collected batches, at most one per type.
    private(set) var batches: [QuantitySampleBatch] = []
    /// Samples in ``batches``.
    private(set) var pending = 0
    /// Roughly the bytes ``batches`` hold (``SampleColumns/approximateByteCount``'s measure, each
    /// row's metadata counted whole): a file of few records with large metadata is saved by this.
    private(set) var pendingBytes = 0
    /// Records read (stored, rejected or skipped).
    private(set) var records = 0
    /// Records met inside `<Correlation>`s, in file order: resolved against their top-level twins
    /// once the whole file is read (<doc:HowCadenceComputes#Importing-Apple-Health-exports>); the
    /// import moves them to disk as it goes (``HeldCorrelations``).
    private(set) var nestedRecords: [ExportRecord] = []
    /// `<Correlation>`s, in file order, each with where its records start in ``nestedRecords``:
    /// stored once their members are resolved (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    private(set) var correlations: [(record: ExportRecord, firstMember: Int)] = []
    /// Workouts read and not taken yet, with the lines of their `<Workout>` tags, in file order.
    private(set) var workouts: [(workout: Workout, line: Int)] = []
    /// Activity summaries read, in file order: saved once the whole file is read, since a later
    /// summary of a day replaces an earlier one (<doc:HowCadenceComputes#Activity-summaries>); the
    /// import moves them to disk as it goes (``HeldActivitySummaries``).
    private(set) var activitySummaries: [ActivitySummary] = []
    /// Whether a record's type was neither known, stored, nor met earlier in the file while
    /// ``resolvesNewUnknownTypes`` was off; that record was dropped.
    private(set) var metNewUnknownType = false
    /// Whether a type met for the first time takes the unit of its first record (<doc:HowCadenceComputes#Types-and-units>). A
    /// segment copy must not decide it, since an earlier segment may hold an earlier record.
    private var resolvesNewUnknownTypes = true
    /// The sources the store holds and the file added so far, against the store's cap.
    private(set) var sources: ImportLedger<Provenance>
    /// The types the store holds and the file added so far, against the store's cap.
    private(set) var types: ImportLedger<String>
    /// Why reading must stop: the record at its line would have been one source or type more than
    /// a store holds. Records after it are not collected; those before it are.
    private(set) var refusal: CadenceError?

    /// Where each type's batch is in ``batches``.
    private var batchIndexes: [ExactString: Int] = [:]
    private var units: [ExactString: HealthUnit] = [:]
    private var conversions: [ExactString: UnitConversion] = [:]
    private var devices: [ExactString: Device] = [:]
    /// The type and unit of the last record resolved: consecutive records mostly repeat them.
    /// Kept as fields read in place, not an optional tuple, so checking it copies no string.
    private var recentType = RecentType()
    /// Types Cadence does not know, as first met in this file.
    private var unknownTypes: [ExactString: QuantityType] = [:]
    /// The provenance of the last record stored and where it went.
    private var recentProvenance = RecentProvenance()
    /// The provenance stored before ``recentProvenance``: records of two sources that alternate
    /// (a phone's and a watch's steps) find theirs here without hashing one.
    private var earlierProvenance = RecentProvenance()

    /// A type identifier and unit as a file writes them, resolved.
    private struct RecentType {
        var identifier = ""
        var unitText = ""
        var type: QuantityType?
        /// `type`'s identifier, and whether Cadence knows it, apart: checking them copies no type.
        var typeIdentifier = ""
        var isKnown = false
        var conversion = UnitConversion.identity
        var validValues: ClosedRange<Double> = 0...0
    }

    /// A provenance as a file writes it, and its index in its type's batch.
    private struct RecentProvenance {
        var typeIdentifier = ""
        var sourceName = ""
        var sourceVersion: String?
        var device: String?
        /// The batch in ``SampleCollector/batches``, or -1 when there is none.
        var batch = -1
        var index = -1
    }

    /// Creates a collector for the file at `path` into `store`, which holds at most `sourceLimit` sources.
    init(store: HealthStore, path: String, dryRun: Bool, sourceLimit: Int = HealthStore.maximumSources,
         typeLimit: Int = HealthStore.maximumTypes) {
        let snapshot = store.snapshot()
        self.init(store: store, path: path, dryRun: dryRun,
                  sources: ImportLedger(stored: snapshot.provenances, limit: sourceLimit),
                  types: ImportLedger(stored: snapshot.types.keys, limit: typeLimit))
    }

    private init(store: HealthStore, path: String, dryRun: Bool, sources: ImportLedger<Provenance>,
                 types: ImportLedger<String>) {
        self.store = store
        self.dryRun = dryRun
        self.sources = sources
        self.types = types
        summary = ImportSummary(file: path)
    }

    /// A collector for a later segment of the same file: the same caches and unknown types,
    /// nothing collected or counted, and new unknown types left undecided unless
    /// `resolvingNewUnknownTypes` (for records read after the whole file, which are never earlier
    /// than another).
    func segmentCopy(resolvingNewUnknownTypes: Bool = false) -> SampleCollector {
        var copy = SampleCollector(store: store, path: summary.file, dryRun: dryRun, sources: sources.segmentCopy(),
                                    types: types.segmentCopy())
        copy.units = units
        copy.conversions = conversions
        copy.devices = devices
        copy.unknownTypes = unknownTypes
        copy.resolvesNewUnknownTypes = resolvingNewUnknownTypes
        return copy
    }

    /// Adds what a ``segmentCopy()`` collected from the bytes right after this collector's:
    /// its rows join this collector's batches, its counts and rejections its summary.
    ///
    /// - Complexity: O(*n*) column copies for the copy's *n* samples.
    mutating func absorb(_ segment: SampleCollector) {
        for batch in segment.batches {
            let index = batchIndex(for: batch.quantityType)
            batches[index].append(contentsOf: batch)
        }
        pending += segment.pending
        pendingBytes += segment.pendingBytes
        records += segment.records
        correlations += segment.correlations.map { ($0.record, $0.firstMember + nestedRecords.count) }
        nestedRecords += segment.nestedRecords
        workouts += segment.workouts
        activitySummaries += segment.activitySummaries
        forgetRecentProvenances()
        sources.absorb(segment.sources)
        types.absorb(segment.types)
        summary.absorbCounts(of: segment.summary)
        for (identifier, type) in segment.unknownTypes where unknownTypes[identifier] == nil { unknownTypes[identifier] = type }
    }

    /// Adds the rows of series samples read whole (an owner and its entries), in batches of their own
    /// so that each entry keeps its place among its owner's.
    mutating func add(_ series: [QuantitySeriesSample]) throws {
        guard !dryRun, refusal == nil else { return }
        for batch in try QuantitySeriesStorage.batches(series) {
            batches.append(batch)
            pending += batch.count
            pendingBytes += batch.columns.approximateByteCount
        }
    }

    /// Hands over the collected batches and starts new ones.
    mutating func takeBatches() -> [QuantitySampleBatch] {
        defer {
            batches = []
            batchIndexes = [:]
            forgetRecentProvenances()
            pending = 0
            pendingBytes = 0
        }
        return batches
    }

    /// Hands over the workouts read, with the lines of their `<Workout>` tags, and forgets them.
    mutating func takeWorkouts() -> [(workout: Workout, line: Int)] {
        defer { workouts = [] }
        return workouts
    }

    /// Hands over the activity summaries read, and forgets them.
    mutating func takeActivitySummaries() -> [ActivitySummary] {
        defer { activitySummaries = [] }
        return activitySummaries
    }

    /// Hands over the records met inside correlations, and the correlations, and forgets them.
    mutating func takeNestedRecords() -> (records: [ExportRecord], correlations: [(record: ExportRecord, firstMember: Int)]) {
        defer {
            nestedRecords = []
            correlations = []
        }
        return (nestedRecords, correlations)
    }

    // MARK: Records

    /// Adds a record of an `export.xml`; records inside correlations are kept aside, since Apple
    /// writes them at top level too (see ``takeNestedRecords()``).
    mutating func add(_ record: ExportRecord) {
        guard refusal == nil else { return }
        if let members = record.correlationMemberCount {
            if !dryRun { correlations.append((record, nestedRecords.count - members)) }
            return
        }
        if record.isInsideCorrelation {
            records += 1
            if !dryRun { nestedRecords.append(record) }
            return
        }
        let metadata = record.metadata.isEmpty ? [:]
            : Dictionary(record.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        add(line: record.line, type: record.type, sourceName: record.sourceName, unit: record.unit,
            start: record.startDate, end: record.endDate, value: record.value, uuid: nil,
            sourceVersion: record.sourceVersion, device: record.device, creation: record.creationDate,
            metadata: metadata, parsed: (record.startTimestamp, record.endTimestamp, record.creationTimestamp))
    }

    /// Adds one record given as strings; a record that cannot be stored is counted or rejected
    /// with its line.
    ///
    /// - Parameter parsed: Dates the reader parsed already; their texts are then not read.
    mutating func add(line: Int, type identifier: String, sourceName: String, unit unitText: String?,
                      start startText: String, end endText: String, value valueText: String?, uuid: UUID?,
                      sourceVersion: String?, device deviceText: String?, creation creationText: String?,
                      metadata: [String: String],
                      parsed: (start: Timestamp?, end: Timestamp?, creation: Timestamp?) = (nil, nil, nil)) {
        guard refusal == nil else { return }
        records += 1
        // A category type by its identifier, or by its short name (`sleepAnalysis`) as CSV files may write it.
        let isCategory = identifier.hasPrefix(CategoryType.identifierPrefix)
        let isQuantity = !isCategory
            && (identifier.hasPrefix(QuantityType.identifierPrefix) || QuantityType.known(identifier) != nil)
        if !isQuantity, let type = isCategory ? CategoryType(identifier: identifier) : CategoryType.known(identifier) {
            return addCategory(line: line, type: type, sourceName: sourceName, start: startText, end: endText,
                               value: valueText, uuid: uuid, sourceVersion: sourceVersion, device: deviceText,
                               creation: creationText, metadata: metadata, parsed: parsed)
        }
        guard isQuantity else {
            if identifier.isEmpty || sourceName.isEmpty {
                summary.reject(line: line, identifier.isEmpty ? "the type is missing" : "the source name is missing")
            } else {
                summary.otherRecords += 1
            }
            return
        }
        guard !sourceName.isEmpty else { return summary.reject(line: line, "the source name is missing") }
        guard let valueText, let value = Self.parseNumber(valueText), value.isFinite else {
            let shown = Self.escapingControls(valueText?.prefix(64) ?? "")
            if let byte = valueText.flatMap(Self.byteOutsideNumbers) {
                let hex = String(byte, radix: 16, uppercase: true)
                return summary.reject(line: line, "the value '\(shown)' holds the byte 0x\(byte < 16 ? "0" : "")\(hex), "
                                          + "which cannot be in a number")
            }
            return summary.reject(line: line, "the value '\(shown)' is not a finite number")
        }
        guard let (start, end, creation) = dates(line: line, start: startText, end: endText, creation: creationText,
                                                 parsed: parsed) else { return }
        // Resolve the type and convert the value to its canonical unit: consecutive records
        // mostly repeat the previous record's type and unit, so that case does no hashing.
        guard let unitText, !unitText.isEmpty else { return summary.reject(line: line, "the unit is missing") }
        let type: QuantityType
        let conversion: UnitConversion
        let validValues: ClosedRange<Double>
        if let recent = recentType.type, recentType.identifier.isIdentical(to: identifier),
           recentType.unitText.isIdentical(to: unitText) {
            type = recent
            conversion = recentType.conversion
            validValues = recentType.validValues
            if !type.isKnown { summary.unknownTypes[type.identifier, default: 0] += 1 }
        } else {
            let unit: HealthUnit
            if let cached = units[ExactString(unitText)] {
                unit = cached
            } else {
                do { unit = try HealthUnit(unitText) } catch { return summary.reject(line: line, error) }
                Self.cache(unit, for: ExactString(unitText), in: &units)
            }
            if let known = QuantityType.known(identifier) {
                type = known
            } else {
                // Unknown types keep the unit of their first record; later records convert to it.
                if let resolved = unknownTypes[ExactString(QuantityType.fullIdentifier(identifier))] ?? store.snapshotType(identifier) {
                    type = resolved
                } else if resolvesNewUnknownTypes {
                    type = QuantityType.unknown(identifier, unit: unit)
                } else {
                    metNewUnknownType = true
                    return
                }
                unknownTypes[ExactString(type.identifier)] = type
                summary.unknownTypes[type.identifier, default: 0] += 1
            }
            let conversionKey = ExactString(unitText + "\u{0}" + type.identifier)
            if let cached = conversions[conversionKey] {
                conversion = cached
            } else {
                do { conversion = try unit.conversion(to: type.canonicalUnit) } catch {
                    return summary.reject(line: line, error, detail: " for \(type.shortIdentifier)")
                }
                Self.cache(conversion, for: conversionKey, in: &conversions)
            }
            validValues = type.validValues
            guard admitsType(type.identifier, line: line) else { return }
            recentType = RecentType(identifier: identifier, unitText: unitText, type: type, typeIdentifier: type.identifier,
                                    isKnown: type.isKnown, conversion: conversion, validValues: validValues)
        }
        let canonical = conversion.apply(value)
        guard canonical.isFinite else { return summary.reject(line: line, "the value \(valueText) overflows \(type.canonicalUnit)") }
        if !validValues.contains(canonical) {
            do { try type.validate(value: canonical) } catch { return summary.reject(line: line, error) }
        }
        guard !dryRun else {
            _ = admitsSource(Provenance(source: Source(name: sourceName), sourceVersion: sourceVersion, device: device(deviceText)),
                             batch: nil, line: line)
            return
        }
        // Consecutive records mostly share their type and provenance: reuse the previous
        // record's batch and provenance index without hashing anything.
        func isRecorded(_ provenance: RecentProvenance) -> Bool {
            provenance.batch >= 0 && provenance.typeIdentifier.isIdentical(to: type.identifier)
                && provenance.sourceName.isIdentical(to: sourceName) && provenance.sourceVersion.isIdentical(to: sourceVersion)
                && provenance.device.isIdentical(to: deviceText)
        }
        if !isRecorded(recentProvenance) {
            if isRecorded(earlierProvenance) {
                swap(&recentProvenance, &earlierProvenance)
            } else {
                let batch = self.batchIndex(for: type)
                let provenance = Provenance(source: Source(name: sourceName), sourceVersion: sourceVersion, device: device(deviceText))
                guard admitsSource(provenance, batch: batch, line: line) else { return }
                let index = batches[batch].addProvenance(provenance)
                earlierProvenance = recentProvenance
                recentProvenance = RecentProvenance(typeIdentifier: type.identifier, sourceName: sourceName,
                                                    sourceVersion: sourceVersion, device: deviceText, batch: batch, index: index)
            }
        }
        appendToRecentBatch(line: line, start: start, end: end, value: canonical, uuid: uuid, creation: creation,
                            metadata: metadata)
    }

    /// The series a record of type `identifier` is filed in by ``add(line:type:sourceName:unit:start:end:value:uuid:sourceVersion:device:creation:metadata:parsed:)``
    /// (its batch, and the store's type): a quantity type's full identifier, a category type's
    /// identifier; nil for a record filed in none.
    static func seriesIdentifier(ofRecordType identifier: String) -> String? {
        let isCategory = identifier.hasPrefix(CategoryType.identifierPrefix)
        if !isCategory, identifier.hasPrefix(QuantityType.identifierPrefix) || QuantityType.known(identifier) != nil {
            return QuantityType.known(identifier)?.identifier ?? QuantityType.fullIdentifier(identifier)
        }
        return (isCategory ? CategoryType(identifier: identifier) : CategoryType.known(identifier))?.identifier
    }

    /// Records the provenance of a record that is read but not collected (a reader keeping one
    /// type's records only): its series' batch gets the provenance and no row, so that the
    /// store's sources keep the order, and the devices, they have when every record is collected
    /// (see <doc:HowCadenceComputes#Merging-sources>).
    mutating func noteProvenance(ofSeries series: String, sourceName: String, sourceVersion: String?, device deviceText: String?) {
        let batch = batchIndex(for: .series(series))
        _ = batches[batch].addProvenance(Provenance(source: Source(name: sourceName), sourceVersion: sourceVersion,
                                                    device: device(deviceText)))
    }

    /// A record's dates, parsed (or as the reader parsed them) and in order; `nil` after
    /// rejecting the record with the reason.
    private mutating func dates(line: Int, start startText: String, end endText: String, creation creationText: String?,
                                parsed: (start: Timestamp?, end: Timestamp?, creation: Timestamp?))
        -> (start: Timestamp, end: Timestamp, creation: Timestamp?)?
    {
        let start: Timestamp
        let end: Timestamp
        let creation: Timestamp?
        do {
            start = try parsed.start ?? Self.parseDate(startText)
            end = try parsed.end ?? Self.parseDate(endText)
            creation = try parsed.creation ?? creationText.map(Self.parseDate)
        } catch {
            summary.reject(line: line, error)
            return nil
        }
        guard start <= end else {
            let startDescription = parsed.start.map { formatRFC3339($0, secondsFromGMT: 0) } ?? startText
            let endDescription = parsed.end.map { formatRFC3339($0, secondsFromGMT: 0) } ?? endText
            summary.reject(line: line, "the start date \(startDescription) is after the end date \(endDescription)")
            return nil
        }
        return (start, end, creation)
    }

    /// Adds a category record (<doc:HowCadenceComputes#Categories-workouts-and-correlations>): its value name becomes the type's raw value; an
    /// unknown type or value name is stored verbatim and reported once in the summary. A record
    /// without a value is `notApplicable` for the types that have no values.
    private mutating func addCategory(line: Int, type: CategoryType, sourceName: String, start startText: String,
                                      end endText: String, value valueText: String?, uuid: UUID?, sourceVersion: String?,
                                      device deviceText: String?, creation creationText: String?,
                                      metadata: [String: String],
                                      parsed: (start: Timestamp?, end: Timestamp?, creation: Timestamp?)) {
        guard !sourceName.isEmpty else { return summary.reject(line: line, "the source name is missing") }
        let notApplicable = type.values.count == 1 ? type.values.first?.name : nil
        guard let valueName = valueText.flatMap({ $0.isEmpty ? nil : $0 }) ?? notApplicable else {
            return summary.reject(line: line, "the value is missing")
        }
        guard let (start, end, creation) = dates(line: line, start: startText, end: endText, creation: creationText,
                                                 parsed: parsed) else { return }
        let sample: CategorySample
        do {
            sample = try CategorySample(uuid: uuid ?? UUID(), type: type, valueName: valueName, start: Date(timestamp: start),
                                        end: Date(timestamp: end), source: Source(name: sourceName),
                                        sourceVersion: sourceVersion, device: device(deviceText),
                                        creationDate: creation.map { Date(timestamp: $0) }, metadata: metadata)
        } catch {
            return summary.reject(line: line, error)
        }
        if !type.isKnown { summary.unknownTypes[type.identifier, default: 0] += 1 }
        if sample.value == CategorySample.unknownValue {
            summary.unknownCategoryValues[type.shortIdentifier + " " + valueName, default: 0] += 1
        }
        guard admitsType(type.identifier, line: line) else { return }
        let batch = dryRun ? nil : batchIndex(for: .series(type.identifier))
        guard admitsSource(Provenance(source: sample.source, sourceVersion: sample.sourceVersion, device: sample.device),
                           batch: batch, line: line), let batch else { return }
        forgetRecentProvenances()
        do {
            // Without a UUID in the record, the row's identity is derived (How Cadence computes: Identity).
            try batches[batch].append(sample, keepingUUID: uuid != nil)
        } catch {
            return summary.reject(line: line, error)
        }
        countPending(metadata: metadata)
    }

    /// Adds a record and says where its row went (batch and row), or `nil` when it was not stored.
    mutating func addLocating(_ record: ExportRecord) -> (batch: Int, row: Int)? {
        let before = pending
        add(record)
        guard pending > before, let batch = batchIndexes[ExactString(record.type)] ?? batchIndexes[ExactString(QuantityType.fullIdentifier(record.type))]
        else { return nil }
        return (batch, batches[batch].count - 1)
    }

    /// Adds a `<Correlation>` whose members' type identifiers and UUIDs are resolved (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    mutating func addCorrelation(_ record: ExportRecord, members: [(type: String, uuid: UUID)]) {
        let type = CorrelationType(identifier: record.type)
        guard !record.sourceName.isEmpty else { return summary.reject(line: record.line, "the source name is missing") }
        guard let (start, end, creation) = dates(line: record.line, start: record.startDate, end: record.endDate,
                                                 creation: record.creationDate,
                                                 parsed: (record.startTimestamp, record.endTimestamp, record.creationTimestamp))
        else { return }
        var metadata = Dictionary(record.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        metadata[KindAttributes.correlationMembers] = KindAttributes.members(members)
        guard admitsType(type.identifier, line: record.line) else { return }
        forgetRecentProvenances()
        let batch = batchIndex(for: .series(type.identifier))
        let source = Provenance(source: Source(name: record.sourceName), sourceVersion: record.sourceVersion,
                                device: device(record.device))
        guard admitsSource(source, batch: batch, line: record.line) else { return }
        let provenance = batches[batch].addProvenance(source)
        do {
            try batches[batch].append(startTimestamp: start, endTimestamp: end, value: Double(members.count),
                                      provenanceIndex: provenance, creationTimestamp: creation, metadata: metadata)
        } catch {
            return summary.reject(line: record.line, error)
        }
        countPending(metadata: metadata)
    }

    /// Adds the record if it is the common one — the type, unit and provenance of the record
    /// before, no UUID or metadata, dates that parse and a plain decimal value within range after
    /// conversion — straight into its batch, without a string made or copied; returns false,
    /// having added nothing, for any other record, which the caller then adds by the general path.
    mutating func addIfRepeating(_ fields: some RecordFields) -> Bool {
        guard let dates = repeatedDates(fields) else { return false }
        return fields.withValueBytes { value in
            guard let value, let number = parsePlainDecimal(value) else { return false }
            return appendRepeating(line: fields.line, start: dates.start, end: dates.end, creation: dates.creation,
                                   value: number)
        }
    }

    /// ``addIfRepeating(_:)`` for a reader that holds the value as a number (Arrow).
    mutating func addIfRepeating(_ fields: some RecordFields, value: Double) -> Bool {
        guard let dates = repeatedDates(fields) else { return false }
        return appendRepeating(line: fields.line, start: dates.start, end: dates.end, creation: dates.creation, value: value)
    }

    /// The record's dates when it repeats the type, unit and provenance of the record before and
    /// has no UUID or metadata; nil otherwise.
    /// The record before's provenance is also taken when it is ``earlierProvenance``'s, which then becomes the recent one.
    private mutating func repeatedDates(_ fields: some RecordFields) -> (start: Timestamp, end: Timestamp, creation: Timestamp?)? {
        guard isRecentProvenanceOfKnownType, !fields.hasExtras,
              fields.attribute(.type, equals: recentType.identifier), fields.attribute(.unit, equals: recentType.unitText)
        else { return nil }
        func isRecorded(_ provenance: RecentProvenance) -> Bool {
            fields.attribute(.sourceName, equals: provenance.sourceName)
                && fields.attribute(.sourceVersion, equals: provenance.sourceVersion)
                && fields.attribute(.device, equals: provenance.device)
        }
        if !isRecorded(recentProvenance) {
            guard earlierProvenance.batch >= 0, earlierProvenance.typeIdentifier.isIdentical(to: recentType.typeIdentifier),
                  isRecorded(earlierProvenance) else { return nil }
            swap(&recentProvenance, &earlierProvenance)
        }
        return fields.timestamps()
    }

    /// Whether the store has room for `provenance` (the batch at `batch` holds it, or the ledger
    /// admits it); otherwise the record at `line` is refused, and with it the rest of the file.
    private mutating func admitsSource(_ provenance: Provenance, batch: Int?, line: Int) -> Bool {
        if let batch, batches[batch].provenanceIndex(of: provenance) != nil { return true }
        if sources.admits(provenance.splittingDeviceAddress.provenance) { return true }
        refuse(line: line, "the source '\(Self.escapingControls(provenance.source.name.prefix(256)))' (with its version and "
                   + "device) would be one more than the \(sources.limit) sources a store holds; every query reads the "
                   + "source dictionary: split the data into several stores")
        return false
    }

    /// Whether the store has room for the type `identifier`; otherwise the record at `line` is
    /// refused, and with it the rest of the file.
    private mutating func admitsType(_ identifier: String, line: Int) -> Bool {
        if types.admits(identifier) { return true }
        refuse(line: line, "the type '\(Self.escapingControls(identifier.prefix(256)))' would be one more than the "
                   + "\(types.limit) types a store holds; every open reads each type's chunk list: split the data "
                   + "into several stores")
        return false
    }

    /// Stops collecting at the record at `line`, for `reason`.
    private mutating func refuse(line: Int, _ reason: String) {
        refusal = CadenceError(.invalidArgument, reason, path: summary.file, line: line)
        forgetRecentProvenances()
    }

    /// Forgets where the recent provenances' records went, so the next record takes the general path.
    private mutating func forgetRecentProvenances() {
        recentProvenance.batch = -1
        earlierProvenance.batch = -1
    }

    /// Whether the last record stored is of a type Cadence knows, so that a record repeating its
    /// type, unit and provenance may go straight into its batch.
    private var isRecentProvenanceOfKnownType: Bool {
        !dryRun && recentProvenance.batch >= 0 && recentType.isKnown
            && recentProvenance.typeIdentifier.isIdentical(to: recentType.typeIdentifier)
    }

    /// Appends a record of the recent type and provenance when its dates are in order and its
    /// value is within range after conversion; returns false, having added nothing, otherwise
    /// (the general path then says why).
    private mutating func appendRepeating(line: Int, start: Timestamp, end: Timestamp, creation: Timestamp?,
                                          value: Double) -> Bool {
        guard start <= end else { return false }
        let canonical = recentType.conversion.apply(value)
        guard canonical.isFinite && recentType.validValues.contains(canonical) else { return false }
        records += 1
        appendToRecentBatch(line: line, start: start, end: end, value: canonical, uuid: nil, creation: creation, metadata: [:])
        return true
    }

    /// Appends a checked row to the batch and provenance of ``recentProvenance``.
    private mutating func appendToRecentBatch(line: Int, start: Timestamp, end: Timestamp, value: Double, uuid: UUID?,
                                              creation: Timestamp?, metadata: [String: String]) {
        do {
            // Appended in place: the batch is never copied out of the array.
            try batches[recentProvenance.batch].append(startTimestamp: start, endTimestamp: end, value: value,
                                                       provenanceIndex: recentProvenance.index, uuid: uuid,
                                                       creationTimestamp: creation, metadata: metadata)
        } catch {
            return summary.reject(line: line, error)
        }
        countPending(metadata: metadata)
    }

    /// Counts a row appended to a batch, with its metadata.
    private mutating func countPending(metadata: [String: String]) {
        pending += 1
        pendingBytes += SampleColumns.rowBytes
        guard !metadata.isEmpty else { return }
        pendingBytes += SampleColumns.byteCount(of: metadata)
    }

    /// The index of the type's batch in ``batches``, added if there is none.
    private mutating func batchIndex(for type: QuantityType) -> Int {
        if let existing = batchIndexes[ExactString(type.identifier)] { return existing }
        batches.append(QuantitySampleBatch(type: type))
        batchIndexes[ExactString(type.identifier)] = batches.count - 1
        return batches.count - 1
    }

    /// The device for a description string, parsed once per distinct string.
    private mutating func device(_ text: String?) -> Device? {
        guard let text else { return nil }
        if let cached = devices[ExactString(text)] { return cached }
        let device = Device(description: text)
        Self.cache(device, for: ExactString(text), in: &devices)
        return device
    }

    /// The most entries each of the collector's caches (units, conversions, devices) keeps: a
    /// file with a distinct device on every row parses each again rather than keep them all.
    static let cacheLimit = 4_096

    /// Keeps `value` in `cache`, emptied first when it holds ``cacheLimit`` entries.
    private static func cache<Value>(_ value: Value, for key: ExactString, in cache: inout [ExactString: Value]) {
        if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[key] = value
    }

    /// An export date (`2017-01-22 18:57:52 +0200`, or iOS 8's `20170122185752+0200`) or an RFC 3339 one.
    static func parseDate(_ text: String) throws -> Timestamp {
        var text = text
        return try text.withUTF8(parseDate)
    }

    /// An export date or an RFC 3339 one, from its UTF-8 bytes.
    static func parseDate(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Timestamp {
        // Byte 10 tells them apart: a space in the export's format, 'T' in RFC 3339.
        if bytes.count > 10, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") {
            return try parseRFC3339(bytes)
        }
        do {
            return try parseExport(bytes)
        } catch {
            // RFC 3339 with a space for its 'T'; when that fails too, the export's reason says more.
            if let timestamp = try? parseRFC3339(bytes) { return timestamp }
            throw error
        }
    }

    /// A decimal number, allowing spaces around it; `nil` for text holding a byte no number has
    /// (`Double(String)` reads a C string: it would stop at a NUL and take `1\0999` for 1).
    static func parseNumber(_ text: String) -> Double? {
        guard byteOutsideNumbers(text) == nil else { return nil }
        var text = text
        if let value = text.withUTF8(parsePlainDecimal) ?? Double(text) { return value }
        var trimmed = Substring(text)
        while let first = trimmed.utf8.first, first == 0x20 || first == 0x09 { trimmed = trimmed.dropFirst() }
        while let last = trimmed.utf8.last, last == 0x20 || last == 0x09 { trimmed = trimmed.dropLast() }
        return Double(trimmed)
    }
}

extension SampleCollector {
    /// The first byte of `text` that cannot be in a number `Double(String)` reads (digits,
    /// letters for exponents, `inf`, `nan` and hexadecimal, signs, the point, spaces and tabs).
    static func byteOutsideNumbers(_ text: String) -> UInt8? {
        text.utf8.first { byte in
            !(byte >= 0x30 && byte <= 0x39 || byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A
              || byte == 0x2B || byte == 0x2D || byte == 0x2E || byte == 0x20 || byte == 0x09)
        }
    }

    /// `text` with control characters written as `\u{…}`, so a reason never carries a NUL or a
    /// line break to the terminal.
    static func escapingControls(_ text: some StringProtocol) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension SampleCollector: ExportRecordSink {
    static var receivesRecordViews: Bool { true }
    static var receivesCorrelations: Bool { true }

    mutating func receive(_ record: ExportRecord) { add(record) }

    mutating func receive(_ view: ExportRecordView) {
        if !addIfRepeating(view) { add(view.record()) }
    }

    mutating func receive(_ workout: Workout, line: Int) {
        guard refusal == nil, admitsSource(Provenance(source: workout.source, sourceVersion: workout.sourceVersion,
                                                      device: workout.device), batch: nil, line: line) else { return }
        workouts.append((workout, line))
    }

    mutating func receive(_ summary: ActivitySummary, line: Int) {
        if !dryRun, refusal == nil { activitySummaries.append(summary) }
    }
}

extension ImportSummary {
    /// Rejects the record at `line` for `error`: a ``CadenceError``'s message followed by `detail`,
    /// or any other error's description.
    mutating func reject(line: Int, _ error: any Error, detail: String = "") {
        reject(line: line, (error as? CadenceError).map { $0.message + detail } ?? "\(error)")
    }

    /// Adds another summary's rejections and counts of records not stored.
    mutating func absorbCounts(of other: ImportSummary) {
        rejected += other.rejected
        for rejection in other.rejections where rejections.count < Self.keptRejections { rejections.append(rejection) }
        for (identifier, count) in other.unknownTypes { unknownTypes[identifier, default: 0] += count }
        for (value, count) in other.unknownCategoryValues { unknownCategoryValues[value, default: 0] += count }
        otherRecords += other.otherRecords
        correlationRecords += other.correlationRecords
    }
}
