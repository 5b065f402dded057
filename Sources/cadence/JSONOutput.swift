//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A JSON value whose objects keep their keys in the order they were built, so that the tool's
/// output is stable from run to run and easy to read.
///
///     let value: JSONValue = .object([("type", .string("stepCount")), ("sum", .number(8_123))])
///     print(value.serialized())
///
/// Numbers are written as plain JSON numbers: whole values without a fraction (`8123`), others in
/// the shortest form that reads back as the same `Double` (`71.16666666666667`); a value that is not
/// finite becomes `null`, since JSON cannot spell it.
enum JSONValue {
    case null
    case bool(Bool)
    case number(Double)
    case integer(Int)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// A number, or `null` when `value` is `nil`.
    static func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }

    /// A string, or `null` when `text` is `nil`.
    static func string(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// The value as JSON text, ending without a newline: indented by two spaces per level, or
    /// with `compact` on one line without blanks (for JSON lines).
    func serialized(compact: Bool = false) -> String {
        var output = ""
        write(to: &output, indentation: compact ? nil : 0)
        return output
    }

    /// Writes the value; a `nil` indentation writes it on one line.
    private func write(to output: inout String, indentation: Int?) {
        switch self {
        case .null:
            output += "null"
        case .bool(let flag):
            output += flag ? "true" : "false"
        case .integer(let integer):
            output += String(integer)
        case .number(let number):
            output += Self.numberText(number)
        case .string(let text):
            Self.writeString(text, to: &output)
        case .array(let elements):
            writeContainer(elements.map { (key: String?.none, value: $0) }, brackets: ("[", "]"), to: &output,
                           indentation: indentation)
        case .object(let members):
            writeContainer(members.map { (key: Optional($0.key), value: $0.value) }, brackets: ("{", "}"), to: &output,
                           indentation: indentation)
        }
    }

    /// Writes an array's elements or an object's members (those with a key) between `brackets`.
    private func writeContainer(_ items: [(key: String?, value: JSONValue)], brackets: (String, String),
                                to output: inout String, indentation: Int?) {
        guard !items.isEmpty else {
            output += brackets.0 + brackets.1
            return
        }
        output += brackets.0
        for (index, item) in items.enumerated() {
            if let indentation { output += "\n" + String(repeating: " ", count: indentation + 2) }
            if let key = item.key {
                Self.writeString(key, to: &output)
                output += indentation == nil ? ":" : ": "
            }
            item.value.write(to: &output, indentation: indentation.map { $0 + 2 })
            if index + 1 < items.count { output += "," }
        }
        if let indentation { output += "\n" + String(repeating: " ", count: indentation) }
        output += brackets.1
    }

    /// A finite number as JSON text; whole numbers that a `Double` holds exactly print without a fraction.
    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 {
            // Avoid "-0" for negative zero.
            return number == 0 ? "0" : String(Int64(number))
        }
        return "\(number)"
    }

    /// Writes `text` as a quoted JSON string, escaping quotes, backslashes and control characters.
    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20 || control.value == 0x7F:
                let hex = String(control.value, radix: 16, uppercase: false)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
