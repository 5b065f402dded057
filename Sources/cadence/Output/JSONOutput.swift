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
        var output = OutputText()
        write(to: &output, indentation: compact ? nil : 0)
        return output.string
    }

    /// Writes the value; a `nil` indentation writes it on one line.
    func write(to output: inout OutputText, indentation: Int?) {
        switch self {
        case .null:
            output.append("null")
        case .bool(let flag):
            output.append(flag ? "true" : "false")
        case .integer(let integer):
            output.appendInteger(Int64(integer))
        case .number(let number):
            output.appendNumber(number)
        case .string(let text):
            output.appendJSONString(text)
        case .array(let elements):
            var container = JSONContainerWriter(array: true, indentation: indentation, into: &output)
            for element in elements {
                container.beginElement(into: &output)
                element.write(to: &output, indentation: container.innerIndentation)
            }
            container.close(into: &output)
        case .object(let members):
            var container = JSONContainerWriter(indentation: indentation, into: &output)
            for member in members {
                container.beginMember(member.key, into: &output)
                member.value.write(to: &output, indentation: container.innerIndentation)
            }
            container.close(into: &output)
        }
    }

    /// A finite number as JSON text; whole numbers that a `Double` holds exactly print without a fraction.
    static func numberText(_ number: Double) -> String {
        var text = OutputText()
        text.appendNumber(number)
        return text.string
    }
}
