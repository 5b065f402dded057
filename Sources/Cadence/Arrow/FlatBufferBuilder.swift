//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A FlatBuffers value to write: a table, a string, or a vector of tables or of structs.
indirect enum FlatBufferValue {
    /// A table's fields by index; `.absent` leaves a field out.
    case table([FlatBufferField])
    case string(String)
    case tables([FlatBufferValue])
    /// A vector of `count` structs laid out in `bytes`, each aligned to `alignment`.
    case structs(bytes: [UInt8], count: Int, alignment: Int)
}

/// One field of a ``FlatBufferValue/table(_:)``.
enum FlatBufferField {
    case absent
    /// A little-endian integer of `width` bytes (1, 2, 4 or 8).
    case scalar(UInt64, width: Int)
    /// A string, vector or table the field points at.
    case offset(FlatBufferValue)

    static func int64(_ value: Int64) -> FlatBufferField { .scalar(UInt64(bitPattern: value), width: 8) }
    static func int32(_ value: Int32) -> FlatBufferField { .scalar(UInt64(UInt32(bitPattern: value)), width: 4) }
    static func int16(_ value: Int16) -> FlatBufferField { .scalar(UInt64(UInt16(bitPattern: value)), width: 2) }
    static func uint8(_ value: UInt8) -> FlatBufferField { .scalar(UInt64(value), width: 1) }
    static func bool(_ value: Bool) -> FlatBufferField { .scalar(value ? 1 : 0, width: 1) }
}

/// Writes a ``FlatBufferValue`` as a FlatBuffers buffer.
///
/// Objects are laid out from the root down — each table or vector before the objects it points at,
/// every unsigned offset pointing forward as the format requires — with every scalar aligned to its
/// width from the buffer's start (which Arrow places at an 8-byte boundary), as readers that verify
/// FlatBuffers check.
struct FlatBufferBuilder {
    private(set) var bytes: [UInt8] = []

    /// The buffer holding `root`, its length a multiple of 8.
    static func buffer(root: FlatBufferValue) -> [UInt8] {
        var builder = FlatBufferBuilder()
        builder.appendInteger(0, width: 4)
        let position = builder.write(root)
        builder.patchOffset(at: 0, to: position)
        builder.pad(to: 8)
        return builder.bytes
    }

    /// Writes `value` and the objects it points at; returns where `value` starts.
    private mutating func write(_ value: FlatBufferValue) -> Int {
        switch value {
        case .string(let text):
            pad(to: 4)
            let position = bytes.count
            appendInteger(UInt64(text.utf8.count), width: 4)
            bytes += text.utf8
            bytes.append(0)
            return position
        case .structs(let data, let count, let alignment):
            pad(to: max(alignment, 4), after: 4)
            let position = bytes.count
            appendInteger(UInt64(count), width: 4)
            bytes += data
            return position
        case .tables(let items):
            pad(to: 4)
            let position = bytes.count
            appendInteger(UInt64(items.count), width: 4)
            for _ in items { appendInteger(0, width: 4) }
            for (index, item) in items.enumerated() {
                let child = write(item)
                patchOffset(at: position + 4 + 4 * index, to: child)
            }
            return position
        case .table(let fields):
            return writeTable(fields)
        }
    }

    private mutating func writeTable(_ fields: [FlatBufferField]) -> Int {
        // The table's layout: its vtable offset, then each present field at a multiple of its width.
        var offsets = [Int](repeating: 0, count: fields.count)
        var size = 4
        for (index, field) in fields.enumerated() {
            let width: Int
            switch field {
            case .absent: continue
            case .scalar(_, let fieldWidth): width = fieldWidth
            case .offset: width = 4
            }
            size = (size + width - 1) / width * width
            offsets[index] = size
            size += width
        }
        pad(to: 2)
        let vtable = bytes.count
        appendInteger(UInt64(4 + 2 * fields.count), width: 2)
        appendInteger(UInt64(size), width: 2)
        for offset in offsets { appendInteger(UInt64(offset), width: 2) }
        // The table starts at 8 bytes so that its 8-byte fields, at multiples of 8 within it, are aligned.
        pad(to: 8)
        let table = bytes.count
        appendInteger(UInt64(table - vtable), width: 4)
        bytes += repeatElement(0, count: size - 4)
        var children: [(at: Int, value: FlatBufferValue)] = []
        for (index, field) in fields.enumerated() {
            switch field {
            case .absent: continue
            case .scalar(let value, let width): setInteger(value, width: width, at: table + offsets[index])
            case .offset(let child): children.append((table + offsets[index], child))
            }
        }
        for child in children { patchOffset(at: child.at, to: write(child.value)) }
        return table
    }

    /// Pads with zeros until `after` bytes from now falls on a multiple of `alignment`.
    mutating func pad(to alignment: Int, after: Int = 0) {
        while (bytes.count + after) % alignment != 0 { bytes.append(0) }
    }

    private mutating func appendInteger(_ value: UInt64, width: Int) {
        for byte in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
    }

    private mutating func setInteger(_ value: UInt64, width: Int, at position: Int) {
        for byte in 0..<width { bytes[position + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
    }

    /// Stores at `position` the unsigned offset from there to `target`.
    private mutating func patchOffset(at position: Int, to target: Int) {
        setInteger(UInt64(target - position), width: 4, at: position)
    }
}
