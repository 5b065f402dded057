//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The unit of an Arrow timestamp column.
package enum ArrowTimeUnit: Int16, Sendable {
    case second = 0, millisecond, microsecond, nanosecond
}

/// The Arrow data types Cadence reads and writes; other types are recognised only to be skipped.
package indirect enum ArrowType: Equatable, Sendable {
    /// A signed or unsigned integer of 8, 16, 32 or 64 bits.
    case int(bitWidth: Int, signed: Bool)
    /// A 32- or 64-bit float.
    case float(bitWidth: Int)
    case bool
    /// UTF-8 text with 32-bit (`utf8`) or 64-bit (`large_utf8`) offsets.
    case utf8(large: Bool)
    /// Instants since 1970-01-01T00:00:00Z; the zone is how the writer displays them (nil: naive).
    case timestamp(ArrowTimeUnit, zone: String?)
    /// Any other type: its name for errors, and its buffers and children for skipping over it.
    case other(name: String, buffers: Int)

    /// The name in errors, as Arrow's documentation spells it.
    var name: String {
        switch self {
        case .int(let width, let signed): "\(signed ? "" : "u")int\(width)"
        case .float(let width): "float\(width)"
        case .bool: "bool"
        case .utf8(let large): large ? "large_utf8" : "utf8"
        case .timestamp(let unit, let zone): "timestamp[\(unit)\(zone.map { ", \($0)" } ?? "")]"
        case .other(let name, _): name
        }
    }

    /// How many body buffers one array of the type has (children aside).
    var bufferCount: Int {
        switch self {
        case .int, .float, .bool, .timestamp: 2
        case .utf8: 3
        case .other(_, let buffers): buffers
        }
    }
}

/// One column of an Arrow schema.
package struct ArrowField: Sendable, Equatable {
    /// A dictionary-encoded column's dictionary: its id and the integer type of its indices.
    package struct Dictionary: Sendable, Equatable {
        package var id: Int64
        package var indexType: ArrowType

        package init(id: Int64, indexType: ArrowType) {
            self.id = id
            self.indexType = indexType
        }
    }

    package var name: String
    package var type: ArrowType
    package var nullable: Bool
    package var dictionary: Dictionary?
    /// Nested columns (of list and struct types), read only to be skipped.
    package var children: [ArrowField]

    package init(name: String, type: ArrowType, nullable: Bool = true, dictionary: Dictionary? = nil,
                 children: [ArrowField] = []) {
        self.name = name
        self.type = type
        self.nullable = nullable
        self.dictionary = dictionary
        self.children = children
    }
}

/// The columns of an Arrow stream.
package struct ArrowSchema: Sendable, Equatable {
    package var fields: [ArrowField]
    /// The schema's custom metadata (`pyarrow.Schema.metadata`): facts about the whole stream,
    /// such as the anchor of a page of changes.
    package var metadata: [String: String]

    package init(fields: [ArrowField], metadata: [String: String] = [:]) {
        self.fields = fields
        self.metadata = metadata
    }

    /// The index of the first column named `name`.
    package func index(of name: String) -> Int? { fields.firstIndex { $0.name == name } }
}

// MARK: Reading

extension ArrowSchema {
    /// The deepest nesting of columns read; deeper is refused rather than recursed into.
    static let maximumDepth = 32

    /// Reads a `Schema` table.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` for big-endian data, a type Cadence cannot
    ///   even skip, or metadata that leaves its message.
    init(reading table: FlatBufferTable) throws {
        if try table.integer(0, default: Int16(0)) != 0 {
            throw table.context.error("the data is big-endian; Cadence reads little-endian Arrow only")
        }
        fields = try table.tables(1, "Field").map { try ArrowField(reading: $0, depth: 0) }
        var metadata: [String: String] = [:]
        for pair in try table.tables(2, "KeyValue") {
            guard let key = try pair.string(0) else { throw pair.context.error("a metadata entry has no key") }
            metadata[key] = try pair.string(1) ?? ""
        }
        self.metadata = metadata
    }
}

extension ArrowField {
    init(reading table: FlatBufferTable, depth: Int) throws {
        guard depth < ArrowSchema.maximumDepth else {
            throw table.context.error("columns nest deeper than \(ArrowSchema.maximumDepth) levels")
        }
        let name = try table.string(0) ?? ""
        self.name = name
        nullable = try table.bool(1, default: false)
        let typeTag = try table.integer(2, default: UInt8(0))
        type = try Self.type(tag: typeTag, table: table.table(3, "type"), context: table.context, column: name)
        if let encoding = try table.table(4, "DictionaryEncoding") {
            let id = try encoding.integer(0, default: Int64(0))
            // Without an index type the indices are int32, as the format says.
            let indexType = try encoding.table(1, "Int").map { try Self.type(tag: 2, table: $0, context: encoding.context, column: name) }
                ?? .int(bitWidth: 32, signed: true)
            guard case .int = indexType else {
                throw table.context.error("column '\(name)': dictionary indices must be integers, not \(indexType.name)")
            }
            dictionary = Dictionary(id: id, indexType: indexType)
        } else {
            dictionary = nil
        }
        children = try table.tables(5, "Field").map { try ArrowField(reading: $0, depth: depth + 1) }
    }

    /// The type of a `Type` union member.
    private static func type(tag: UInt8, table: FlatBufferTable?, context: FlatBufferContext, column: String) throws -> ArrowType {
        func body() throws -> FlatBufferTable {
            guard let table else { throw context.error("column '\(column)' has type \(tag) without its description") }
            return table
        }
        switch tag {
        case 2:
            let width = Int(try body().integer(0, default: Int32(0)))
            guard [8, 16, 32, 64].contains(width) else { throw context.error("column '\(column)': an integer of \(width) bits") }
            return .int(bitWidth: width, signed: try body().bool(1, default: false))
        case 3:
            switch try body().integer(0, default: Int16(0)) {
            case 1: return .float(bitWidth: 32)
            case 2: return .float(bitWidth: 64)
            default: return .other(name: "float16", buffers: 2)
            }
        case 5: return .utf8(large: false)
        case 20: return .utf8(large: true)
        case 6: return .bool
        case 10:
            let rawUnit = try body().integer(0, default: Int16(0))
            guard let unit = ArrowTimeUnit(rawValue: rawUnit) else {
                throw context.error("column '\(column)': timestamp unit \(rawUnit) is none of s, ms, us, ns")
            }
            return .timestamp(unit, zone: try body().string(1))
        case 1: return .other(name: "null", buffers: 0)
        case 4: return .other(name: "binary", buffers: 3)
        case 19: return .other(name: "large_binary", buffers: 3)
        case 7: return .other(name: "decimal", buffers: 2)
        case 8: return .other(name: "date", buffers: 2)
        case 9: return .other(name: "time", buffers: 2)
        case 11: return .other(name: "interval", buffers: 2)
        case 15: return .other(name: "fixed_size_binary", buffers: 2)
        case 18: return .other(name: "duration", buffers: 2)
        case 12, 17: return .other(name: tag == 12 ? "list" : "map", buffers: 2)
        case 21: return .other(name: "large_list", buffers: 2)
        case 13: return .other(name: "struct", buffers: 1)
        case 16: return .other(name: "fixed_size_list", buffers: 1)
        default:
            throw context.error("column '\(column)' has Arrow type \(tag) (a union, view or run-end encoded type), which Cadence does not read")
        }
    }
}

// MARK: Writing

extension ArrowSchema {
    /// The `Schema` table.
    var flatBuffer: FlatBufferValue {
        let fields: [FlatBufferField] = [.int16(0), .offset(.tables(fields.map(\.flatBuffer)))]
        // Without metadata the table ends at its fields, as it always has: the same bytes as before.
        guard !metadata.isEmpty else { return .table(fields) }
        let pairs = metadata.sorted { $0.key < $1.key }.map { FlatBufferValue.table([.offset(.string($0.key)), .offset(.string($0.value))]) }
        return .table(fields + [.offset(.tables(pairs))])
    }
}

extension ArrowField {
    var flatBuffer: FlatBufferValue {
        let (tag, body) = Self.typeTable(type)
        let encoding: FlatBufferField = dictionary.map { dictionary in
            .offset(.table([.int64(dictionary.id), .offset(Self.typeTable(dictionary.indexType).body), .bool(false)]))
        } ?? .absent
        return .table([.offset(.string(name)), .bool(nullable), .uint8(tag), .offset(body), encoding,
                       .offset(.tables(children.map(\.flatBuffer)))])
    }

    /// The `Type` union's tag and table of a type Cadence writes.
    private static func typeTable(_ type: ArrowType) -> (tag: UInt8, body: FlatBufferValue) {
        switch type {
        case .int(let width, let signed): (2, .table([.int32(Int32(width)), .bool(signed)]))
        case .float(let width): (3, .table([.int16(width == 32 ? 1 : 2)]))
        case .bool: (6, .table([]))
        case .utf8(let large): (large ? 20 : 5, .table([]))
        case .timestamp(let unit, let zone): (10, .table([.int16(unit.rawValue), zone.map { .offset(.string($0)) } ?? .absent]))
        case .other: (1, .table([]))
        }
    }
}
