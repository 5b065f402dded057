//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Samples of one quantity type as parallel columns: the in-memory form of a chunk, a log record
/// and the store's unflushed head.
///
/// Optional columns are empty when no row has a value, so the common case (no explicit UUIDs,
/// no creation dates, no metadata) costs nothing. Row `i` of every non-empty column belongs to
/// the same sample.
package struct SampleColumns: Sendable {
    /// Start times, microseconds since 1970.
    package var start: [Int64] = []
    /// End times, microseconds since 1970 (`end[i] >= start[i]`).
    package var end: [Int64] = []
    /// Values in the type's canonical unit.
    package var value: [Double] = []
    /// Provenance numbers (store-wide dictionary ids, or batch-local before a save).
    package var provenance: [UInt32] = []
    /// Change sequence numbers (0 until the store assigns them).
    package var sequence: [Int64] = []
    /// Per-row flags (``SampleFlags``); empty when all are zero.
    package var flags: [UInt8] = []
    /// UUIDs given explicitly; empty when every row's UUID is derived from its content.
    package var explicitUUIDs: [UUID?] = []
    /// Creation times; empty when none is known, ``SampleColumns/absent`` for a row without one.
    package var creation: [Int64] = []
    /// 1-based indexes into ``metadataSets`` (0 = no metadata); empty when no row has metadata.
    package var metadataIndex: [Int32] = []
    /// The distinct metadata dictionaries referred to by ``metadataIndex``.
    package var metadataSets: [[String: String]] = []
    /// Each row's occurrence among identical records of its file (<doc:HowCadenceComputes#Identity>), part of its derived
    /// UUID; empty when every row's is 0, as it almost always is.
    package var occurrence: [UInt32] = []
    /// Each row's variable-size payload (a workout's routes), an empty array for a row without
    /// one; empty when no row has one, or when they stay in ``payloadSource``.
    package var payloads: [[UInt8]] = []
    /// The chunk these rows were decoded from, when its payloads were left there: ``payload(at:)``
    /// reads a row's from it (listings read a payload only when asked to). It describes the
    /// chunk's rows in order: rows selected or appended from these columns carry only ``payloads``.
    package var payloadSource: (any RowPayloadSource)?
    /// Each row's device object address, which its provenance's device description holds without
    /// (see ``Device/splittingObjectAddress(_:)``); 0 for none; empty when no row has one.
    package var deviceAddress: [UInt64] = []
    /// Where each of ``metadataSets`` is, for appends (rebuilt when it falls out of step).
    private var metadataLookup: [[String: String]: Int32] = [:]

    /// The marker for a missing creation time.
    package static let absent = Int64.min

    package init() {}

    package var count: Int { start.count }
    package var isEmpty: Bool { start.isEmpty }

    /// Takes `other`'s query column arrays (start, end, value, provenance, sequence and flags) for
    /// their buffers, leaving them empty in `other`: a decoder refilling them reuses that memory.
    package mutating func takeQueryBuffers(from other: inout SampleColumns) {
        swap(&start, &other.start)
        swap(&end, &other.end)
        swap(&value, &other.value)
        swap(&provenance, &other.provenance)
        swap(&sequence, &other.sequence)
        swap(&flags, &other.flags)
        other = SampleColumns()
    }

    package mutating func reserveCapacity(_ capacity: Int) {
        start.reserveCapacity(capacity)
        end.reserveCapacity(capacity)
        value.reserveCapacity(capacity)
        provenance.reserveCapacity(capacity)
        sequence.reserveCapacity(capacity)
    }

    /// Appends one row; optional fields materialise their column on first use.
    package mutating func append(start: Int64, end: Int64, value: Double, provenance: UInt32, sequence: Int64 = 0,
                                 flags: UInt8 = 0, uuid: UUID? = nil, creation: Int64? = nil,
                                 metadata: [String: String] = [:], occurrence: UInt32 = 0, deviceAddress: UInt64 = 0,
                                 payload: [UInt8] = []) {
        let row = count
        self.start.append(start)
        self.end.append(end)
        self.value.append(value)
        self.provenance.append(provenance)
        self.sequence.append(sequence)
        if flags != 0 || !self.flags.isEmpty {
            if self.flags.isEmpty { self.flags = [UInt8](repeating: 0, count: row) }
            self.flags.append(flags)
        }
        if uuid != nil || !explicitUUIDs.isEmpty {
            if explicitUUIDs.isEmpty { explicitUUIDs = [UUID?](repeating: nil, count: row) }
            explicitUUIDs.append(uuid)
        }
        if creation != nil || !self.creation.isEmpty {
            if self.creation.isEmpty { self.creation = [Int64](repeating: Self.absent, count: row) }
            self.creation.append(creation ?? Self.absent)
        }
        if !metadata.isEmpty || !metadataIndex.isEmpty {
            if metadataIndex.isEmpty { metadataIndex = [Int32](repeating: 0, count: row) }
            metadataIndex.append(metadata.isEmpty ? 0 : metadataNumber(metadata))
        }
        if occurrence != 0 || !self.occurrence.isEmpty {
            if self.occurrence.isEmpty { self.occurrence = [UInt32](repeating: 0, count: row) }
            self.occurrence.append(occurrence)
        }
        if !payload.isEmpty || !payloads.isEmpty {
            if payloads.isEmpty { payloads = [[UInt8]](repeating: [], count: row) }
            payloads.append(payload)
        }
        if deviceAddress != 0 || !self.deviceAddress.isEmpty {
            if self.deviceAddress.isEmpty { self.deviceAddress = [UInt64](repeating: 0, count: row) }
            self.deviceAddress.append(deviceAddress)
        }
    }

    /// The 1-based index of `metadata` in ``metadataSets``, added if it is new.
    private mutating func metadataNumber(_ metadata: [String: String]) -> Int32 {
        if metadataLookup.count != metadataSets.count {
            metadataLookup = Dictionary(metadataSets.enumerated().map { ($0.element, Int32($0.offset + 1)) },
                                        uniquingKeysWith: { first, _ in first })
        }
        if let existing = metadataLookup[metadata] { return existing }
        metadataSets.append(metadata)
        metadataLookup[metadata] = Int32(metadataSets.count)
        return Int32(metadataSets.count)
    }

    /// The row's flags.
    @inline(__always)
    package func flags(at row: Int) -> UInt8 { flags.isEmpty ? 0 : flags[row] }

    /// The row's explicit UUID, if it has one.
    package func explicitUUID(at row: Int) -> UUID? { explicitUUIDs.isEmpty ? nil : explicitUUIDs[row] }

    /// The row's creation time, if known.
    package func creation(at row: Int) -> Int64? {
        guard !creation.isEmpty, creation[row] != Self.absent else { return nil }
        return creation[row]
    }

    /// The row's occurrence number (<doc:HowCadenceComputes#Identity>).
    @inline(__always)
    package func occurrence(at row: Int) -> UInt32 { occurrence.isEmpty ? 0 : occurrence[row] }

    /// The row's device object address (0 for none).
    @inline(__always)
    package func deviceAddress(at row: Int) -> UInt64 { deviceAddress.isEmpty ? 0 : deviceAddress[row] }

    /// The row's metadata.
    package func metadata(at row: Int) -> [String: String] {
        guard !metadataIndex.isEmpty else { return [:] }
        let index = Int(metadataIndex[row])
        return index > 0 && index <= metadataSets.count ? metadataSets[index - 1] : [:]
    }

    /// The row's payload, if it has one, from ``payloads`` or else ``payloadSource``.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the chunk file when its payload block is damaged.
    package func payload(at row: Int) throws -> [UInt8]? {
        if !payloads.isEmpty { return payloads[row].isEmpty ? nil : payloads[row] }
        return try payloadSource?.payload(atRow: row)
    }

    /// The row's payload held in ``payloads`` (empty when none).
    private func inlinePayload(at row: Int) -> [UInt8] { payloads.isEmpty ? [] : payloads[row] }

    /// Roughly the bytes the rows hold in memory: their columns, metadata and payloads (what a
    /// flush by size counts).
    ///
    /// - Complexity: O(*m* + *p*) for *m* distinct metadata dictionaries and *p* payloads.
    package var approximateByteCount: Int {
        let metadataBytes = metadataSets.reduce(0) { $0 + Self.byteCount(of: $1) }
        return count * Self.rowBytes + metadataBytes + payloads.reduce(0) { $0 + $1.count }
    }

    /// Roughly the bytes a row's columns take, without its metadata and payload.
    package static let rowBytes = 48

    /// Roughly the bytes a metadata dictionary takes in memory.
    ///
    /// - Complexity: O(*k*) for its *k* entries.
    package static func byteCount(of metadata: [String: String]) -> Int {
        metadata.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 32 }
    }

    /// Appends every row of `other`, mapping its provenance numbers through `provenanceMap` when given.
    ///
    /// - Complexity: O(*n*) column copies for the *n* rows of `other`, plus one lookup per
    ///   distinct metadata dictionary; nothing is done row by row but the provenance mapping.
    package mutating func append(contentsOf other: SampleColumns, provenanceMap: [UInt32]? = nil) {
        let existing = count
        start += other.start
        end += other.end
        value += other.value
        sequence += other.sequence
        if let provenanceMap {
            provenance.reserveCapacity(existing + other.count)
            for number in other.provenance { provenance.append(provenanceMap[Int(number)]) }
        } else {
            provenance += other.provenance
        }
        Self.appendOptional(other.flags, to: &flags, existing: existing, added: other.count, absent: 0)
        Self.appendOptional(other.explicitUUIDs, to: &explicitUUIDs, existing: existing, added: other.count, absent: nil)
        Self.appendOptional(other.creation, to: &creation, existing: existing, added: other.count, absent: Self.absent)
        Self.appendOptional(other.occurrence, to: &occurrence, existing: existing, added: other.count, absent: 0)
        Self.appendOptional(other.payloads, to: &payloads, existing: existing, added: other.count, absent: [])
        Self.appendOptional(other.deviceAddress, to: &deviceAddress, existing: existing, added: other.count, absent: 0)
        guard !other.metadataIndex.isEmpty || !metadataIndex.isEmpty else { return }
        var numbers: [Int32] = [0]
        for metadata in other.metadataSets { numbers.append(metadataNumber(metadata)) }
        let mapped = other.metadataIndex.isEmpty ? [Int32](repeating: 0, count: other.count)
            : other.metadataIndex.map { numbers[Int($0)] }
        Self.appendOptional(mapped, to: &metadataIndex, existing: existing, added: other.count, absent: 0)
    }

    /// Appends an optional column's `added` rows, materialising either side's column as needed.
    private static func appendOptional<Element>(_ other: [Element], to column: inout [Element], existing: Int,
                                                added: Int, absent: Element) {
        guard !other.isEmpty || !column.isEmpty else { return }
        if column.isEmpty { column = [Element](repeating: absent, count: existing) }
        if other.isEmpty {
            column.append(contentsOf: repeatElement(absent, count: added))
        } else {
            column += other
        }
    }

    /// Whether no row has flags, an explicit UUID, a creation time, metadata, an occurrence number,
    /// a device address or a payload.
    package var hasOnlyQueryColumns: Bool {
        flags.isEmpty && explicitUUIDs.isEmpty && creation.isEmpty && metadataIndex.isEmpty && occurrence.isEmpty
            && deviceAddress.isEmpty && payloads.isEmpty
    }

    /// The rows at `rows`, in that order: the rows ``append(start:end:value:provenance:sequence:flags:uuid:creation:metadata:occurrence:deviceAddress:payload:)``
    /// would give one by one (an optional column only when a selected row has a value in it,
    /// the metadata sets the selected rows use, numbered in order of first use), so a chunk's
    /// bytes do not depend on how its rows were gathered.
    ///
    /// - Complexity: O(*n*) column copies for *n* rows, plus one lookup per distinct metadata
    ///   dictionary: rows are copied column by column, not appended one by one (an import's rows
    ///   carry metadata and device addresses, and appending each went through every column).
    package func selecting(_ rows: some Collection<Int>) -> SampleColumns {
        var result = SampleColumns()
        result.start = rows.map { start[$0] }
        result.end = rows.map { end[$0] }
        result.value = rows.map { value[$0] }
        result.provenance = rows.map { provenance[$0] }
        result.sequence = rows.map { sequence[$0] }
        result.flags = Self.selecting(rows, of: flags, absent: 0)
        result.explicitUUIDs = Self.selecting(rows, of: explicitUUIDs, absent: nil)
        result.creation = Self.selecting(rows, of: creation, absent: Self.absent)
        result.occurrence = Self.selecting(rows, of: occurrence, absent: 0)
        result.deviceAddress = Self.selecting(rows, of: deviceAddress, absent: 0)
        result.payloads = Self.selecting(rows, of: payloads, absent: [])
        guard !metadataIndex.isEmpty else { return result }
        // Each set the rows use, renumbered in order of first use (equal sets, and an empty one
        // as no metadata, as appending the rows' dictionaries would number them).
        var numbers = [Int32?](repeating: nil, count: metadataSets.count + 1)
        numbers[0] = 0
        var index: [Int32] = []
        index.reserveCapacity(rows.count)
        for row in rows {
            // An index outside the sets reads as no metadata (``metadata(at:)``).
            let old = Int(metadataIndex[row])
            guard old >= 0, old < numbers.count else {
                index.append(0)
                continue
            }
            if let number = numbers[old] {
                index.append(number)
            } else {
                let metadata = metadataSets[old - 1]
                let number = metadata.isEmpty ? 0 : result.metadataNumber(metadata)
                numbers[old] = number
                index.append(number)
            }
        }
        if !result.metadataSets.isEmpty { result.metadataIndex = index }
        return result
    }

    /// An optional column's values at `rows`; empty when none of them has a value.
    private static func selecting<Element: Equatable>(_ rows: some Collection<Int>, of column: [Element],
                                                      absent: Element) -> [Element] {
        guard !column.isEmpty else { return [] }
        let selected = rows.map { column[$0] }
        return selected.contains { $0 != absent } ? selected : []
    }

    /// The rows sorted by start time, then sequence: the order inside a chunk.
    ///
    /// - Complexity: O(*n* log *n*).
    package func sortedByStart() -> SampleColumns {
        var isSorted = true
        for row in 1..<max(count, 1) where (start[row - 1], sequence[row - 1]) > (start[row], sequence[row]) {
            isSorted = false
            break
        }
        if isSorted { return self }
        let order = (0..<count).sorted { (start[$0], sequence[$0]) < (start[$1], sequence[$1]) }
        return selecting(order)
    }
}

/// Bits of ``SampleColumns/flags``.
package enum SampleFlags {
    /// The sample's metadata has `HKWasUserEntered` = 1 (it outranks unlisted sources when merging).
    package static let userEntered: UInt8 = 1
}
