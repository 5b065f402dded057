//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// `cadence samples --format arrow` for a quantity type: the listed samples written column by
/// column from the scan's columns, in record batches, with no sample made per row. The columns
/// are those of ``ArrowOutput/samples(_:)``; the type, unit, source, version and device are
/// dictionary-encoded (one entry per provenance), which Arrow readers read as the same text.
enum ArrowSampleListing {
    /// Rows a record batch holds: few batches for readers, bounded memory for us.
    static let batchRows = 1 << 16

    /// Writes `listing` as an Arrow stream to standard output.
    ///
    /// - Throws: What writing throws.
    /// - Complexity: O(*n*) for the *n* listed rows.
    static func write(_ listing: QuantitySampleListing) throws {
        let keys = metadataKeys(listing)
        let timestamp = ArrowType.timestamp(.microsecond, zone: "UTC")
        func encoded(_ name: String, _ id: Int64) -> ArrowField {
            ArrowField(name: name, type: .utf8(large: false), dictionary: .init(id: id, indexType: .int(bitWidth: 32, signed: true)))
        }
        let provenances = listing.provenances
        let devices = deviceEntries(listing)
        let dictionaries: [(field: ArrowField, entries: ArrowColumn)] = [
            (encoded("type", 0), ArrowColumn(name: "type", strings: [listing.type.identifier])),
            (encoded("sourceName", 1), ArrowColumn(name: "sourceName", strings: provenances.map(\.source.name))),
            (encoded("unit", 2), ArrowColumn(name: "unit", strings: [listing.type.canonicalUnit.unitString])),
            (encoded("sourceVersion", 3), ArrowColumn(name: "sourceVersion", strings: provenances.map(\.sourceVersion))),
            (encoded("device", 4), ArrowColumn(name: "device", strings: devices.entries)),
        ]
        let fields = [dictionaries[0].field, dictionaries[1].field, dictionaries[2].field,
                      ArrowField(name: "startDate", type: timestamp), ArrowField(name: "endDate", type: timestamp),
                      ArrowField(name: "value", type: .float(bitWidth: 64)), ArrowField(name: "uuid", type: .utf8(large: false)),
                      dictionaries[3].field, dictionaries[4].field, ArrowField(name: "creationDate", type: timestamp)]
            + keys.map { ArrowField(name: "metadata:" + $0, type: .utf8(large: false)) }
        let schema = ArrowSchema(fields: fields)
        var writer = try ArrowOutput.standardOutputWriter(schema: schema)
        for (field, entries) in dictionaries { try writer.writeDictionary(id: field.dictionary?.id ?? 0, entries) }
        for first in stride(from: 0, to: listing.rows.count, by: batchRows) {
            let range = first..<min(listing.rows.count, first + batchRows)
            try writer.write(batch(listing, rows: range, schema: schema, dictionaries: dictionaries.map(\.entries), keys: keys,
                                   deviceIndices: devices.rowIndices.map { Array($0[range]) }))
        }
        try writer.finish()
    }

    /// The device column's dictionary and, when some row keeps its device's object address, each
    /// listed row's entry: one entry per provenance, and one per provenance and address, so the
    /// column gives every device description back as it was imported (How Cadence computes:
    /// Identity). Without addresses the rows' provenance numbers index the entries.
    ///
    /// - Complexity: O(*n*) for the *n* listed rows when some row has an address, else O(*p*).
    private static func deviceEntries(_ listing: QuantitySampleListing) -> (entries: [String?], rowIndices: [Int]?) {
        var entries = listing.provenances.map { $0.device?.descriptionString }
        guard listing.portions.contains(where: { !$0.deviceAddress.isEmpty }) else { return (entries, nil) }
        struct AddressedDevice: Hashable { let provenance: UInt32, address: UInt64 }
        var numbers: [AddressedDevice: Int] = [:]
        var indices = [Int]()
        indices.reserveCapacity(listing.rows.count)
        for row in listing.rows {
            let columns = listing.portions[Int(row.portion)]
            let at = Int(row.row)
            let number = columns.provenance[at]
            let address = columns.deviceAddress(at: at)
            guard address != 0 else {
                indices.append(Int(number))
                continue
            }
            let key = AddressedDevice(provenance: number, address: address)
            if let index = numbers[key] {
                indices.append(index)
                continue
            }
            numbers[key] = entries.count
            indices.append(entries.count)
            entries.append(listing.provenances[Int(number)].restoringDeviceAddress(address).device?.descriptionString)
        }
        return (entries, indices)
    }

    /// The metadata keys of the listed rows, sorted.
    private static func metadataKeys(_ listing: QuantitySampleListing) -> [String] {
        var used = listing.portions.map { [Bool](repeating: false, count: $0.metadataSets.count + 1) }
        for row in listing.rows {
            let columns = listing.portions[Int(row.portion)]
            guard !columns.metadataIndex.isEmpty else { continue }
            used[Int(row.portion)][Int(columns.metadataIndex[Int(row.row)])] = true
        }
        var keys = Set<String>()
        for (portion, columns) in listing.portions.enumerated() {
            for (index, metadata) in columns.metadataSets.enumerated() where used[portion][index + 1] {
                keys.formUnion(metadata.keys)
            }
        }
        return keys.sorted()
    }

    /// Rows `range` of the listing as a record batch.
    private static func batch(_ listing: QuantitySampleListing, rows range: Range<Int>, schema: ArrowSchema,
                              dictionaries: [ArrowColumn], keys: [String], deviceIndices: [Int]?) -> ArrowRecordBatch {
        let count = range.count
        var provenance = [Int](), start = [Int64](), end = [Int64](), value = [Double](), creation = [Int64]()
        provenance.reserveCapacity(count)
        start.reserveCapacity(count)
        end.reserveCapacity(count)
        value.reserveCapacity(count)
        creation.reserveCapacity(count)
        var creationValid = [Bool](repeating: true, count: count)
        // Every UUID's text is 36 bytes: the column's bytes are made once and filled in place.
        var uuidText = [UInt8](repeating: 0, count: 36 * count)
        var metadata = keys.map { _ in [String?]() }
        // A portion's columns are taken once for its run of rows, not copied (and retained) per row.
        var portion = Int32(-1)
        var portionColumns = SampleColumns()
        for index in range {
            let row = listing.rows[index]
            if row.portion != portion {
                portion = row.portion
                portionColumns = listing.portions[Int(portion)]
            }
            let columns = portionColumns
            let at = Int(row.row)
            provenance.append(Int(columns.provenance[at]))
            start.append(columns.start[at])
            end.append(columns.end[at])
            value.append(columns.value[at])
            let created = columns.creation(at: at)
            creation.append(created ?? 0)
            if created == nil { creationValid[index - range.lowerBound] = false }
            let uuid = listing.uuid(of: columns, row: row)
            let offset = 36 * (index - range.lowerBound)
            uuidText.withUnsafeMutableBufferPointer { spell(uuid, into: UnsafeMutableBufferPointer(rebasing: $0[offset...])) }
            guard !keys.isEmpty else { continue }
            let rowMetadata = columns.metadata(at: at)
            for (column, key) in keys.enumerated() { metadata[column].append(rowMetadata[key]) }
        }
        var uuids = ArrowStrings()
        uuids.offsets = Array(stride(from: 0, through: 36 * count, by: 36))
        uuids.bytes = uuidText
        func indexed(_ dictionary: Int, _ indices: [Int]) -> ArrowColumn {
            ArrowColumn(field: schema.fields[[0, 1, 2, 7, 8][dictionary]], count: count, validity: nil,
                        values: .dictionary(indices: indices, dictionary: dictionaries[dictionary]))
        }
        let zeros = [Int](repeating: 0, count: count)
        let timestamp = ArrowType.timestamp(.microsecond, zone: "UTC")
        var output = [
            indexed(0, zeros), indexed(1, provenance), indexed(2, zeros),
            ArrowColumn(field: ArrowField(name: "startDate", type: timestamp), count: count, validity: nil, values: .integers(start)),
            ArrowColumn(field: ArrowField(name: "endDate", type: timestamp), count: count, validity: nil, values: .integers(end)),
            ArrowColumn(field: ArrowField(name: "value", type: .float(bitWidth: 64)), count: count, validity: nil, values: .doubles(value)),
            ArrowColumn(field: ArrowField(name: "uuid", type: .utf8(large: false)), count: count, validity: nil, values: .strings(uuids)),
            indexed(3, provenance), indexed(4, deviceIndices ?? provenance),
            ArrowColumn(field: ArrowField(name: "creationDate", type: timestamp), count: count,
                        validity: creationValid.allSatisfy { $0 } ? nil : creationValid, values: .integers(creation)),
        ]
        output += zip(keys, metadata).map { key, values in ArrowColumn(name: "metadata:" + key, strings: values) }
        return ArrowRecordBatch(schema: schema, count: count, columns: output)
    }

    /// Each byte's two upper-case hexadecimal digits, the first in the low byte.
    private static let hexPairs: [UInt16] = (0...255).map { byte in
        let digits = Array("0123456789ABCDEF".utf8)
        return UInt16(digits[byte >> 4]) | UInt16(digits[byte & 0x0F]) << 8
    }

    /// Writes `uuid` as `UUID.uuidString` spells it (upper-case hexadecimal, 8-4-4-4-12) into the
    /// first 36 bytes of `text`, a pair of digits a byte, without a string made.
    private static func spell(_ uuid: UUID, into text: UnsafeMutableBufferPointer<UInt8>) {
        hexPairs.withUnsafeBufferPointer { pairs in
            withUnsafeBytes(of: uuid.uuid) { bytes in
                let out = UnsafeMutableRawBufferPointer(text)
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    out.storeBytes(of: pairs[Int(bytes[index])].littleEndian, toByteOffset: at, as: UInt16.self)
                    at += 2
                }
            }
        }
    }
}
