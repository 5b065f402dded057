//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The object address in an export's device description (`<<HKDevice: 0x282e86490>, …`): the
/// address of an `HKDevice` in the exporting process, new on nearly every record.
///
/// **[Cadence rule]** It takes no part in a sample's identity, and a store keeps it per sample,
/// beside its number in the source dictionary, whose entry holds the description without it
/// (<doc:HowCadenceComputes#Identity>). Only the canonical form an export writes is split —
/// `<<HKDevice: 0x`, 1 to 16 lowercase hexadecimal digits without a leading zero, `>` — so that
/// putting the address back gives the original bytes; any other text is kept whole.
extension Device {
    /// How a canonical description begins, up to its address.
    private static let addressPrefix = Array("<<HKDevice: 0x".utf8)
    /// How a description without its address begins.
    private static let addressFreePrefix = Array("<<HKDevice>".utf8)

    /// A canonical `description` without its address (`<<HKDevice>, …`), and the address; `nil`
    /// for any other text.
    package static func splittingObjectAddress(_ description: String) -> (description: String, address: UInt64)? {
        let utf8 = description.utf8
        guard utf8.starts(with: addressPrefix) else { return nil }
        var index = utf8.index(utf8.startIndex, offsetBy: addressPrefix.count)
        var address: UInt64 = 0
        var digits = 0
        while index < utf8.endIndex, let digit = lowercaseHexDigit(utf8[index]) {
            // A leading zero, or a 17th digit, would not come back as written.
            guard digits < 16, digits > 0 || digit != 0 else { return nil }
            address = address << 4 | digit
            digits += 1
            index = utf8.index(after: index)
        }
        guard digits > 0, index < utf8.endIndex, utf8[index] == UInt8(ascii: ">") else { return nil }
        let rest = utf8[index...]
        return (String(decoding: addressFreePrefix.dropLast() + rest, as: UTF8.self), address)
    }

    /// `description` with `address` put back, as ``splittingObjectAddress(_:)`` took it out;
    /// `description` itself for address 0 (none) or a description without the address-free prefix.
    ///
    /// - Complexity: O(*d*) for a description of *d* bytes, written into one new string.
    package static func restoringObjectAddress(_ address: UInt64, to description: String) -> String {
        guard address != 0 else { return description }
        var description = description
        let restored = description.withUTF8 { bytes -> String? in
            guard bytes.starts(with: addressFreePrefix) else { return nil }
            let rest = UnsafeBufferPointer(rebasing: bytes[(addressFreePrefix.count - 1)...])
            let digits = (UInt64.bitWidth - address.leadingZeroBitCount + 3) / 4
            return String(unsafeUninitializedCapacity: addressPrefix.count + digits + rest.count) { buffer in
                var end = buffer.initialize(fromContentsOf: addressPrefix)
                for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
                    buffer[end] = hexDigits[Int(address >> UInt64(shift) & 0xf)]
                    end += 1
                }
                end += UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: rest)
                return end
            }
        }
        return restored ?? description
    }

    /// The lowercase hexadecimal digits, by value.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The description as identity sees it (<doc:HowCadenceComputes#Identity>): without the text
    /// between `HKDevice: 0x` and the end of the hexadecimal digits after it, wherever that is,
    /// in whatever case, so that a derived UUID does not depend on any address.
    static func removingObjectAddress(_ description: String) -> String {
        guard let marker = description.range(of: "HKDevice: 0x") else { return description }
        var end = marker.upperBound
        while end < description.endIndex, description[end].isHexDigit { end = description.index(after: end) }
        return String(description[..<description.index(marker.lowerBound, offsetBy: "HKDevice".count)])
            + String(description[end...])
    }

    /// This device without the object address of its description, and the address (0 when the
    /// description is not in the canonical form).
    package var splittingObjectAddress: (device: Device, address: UInt64) {
        guard let rawDescription, let split = Self.splittingObjectAddress(rawDescription) else { return (self, 0) }
        var device = self
        device.rawDescription = split.description
        return (device, split.address)
    }

    /// This device with `address` put back into its description.
    package func restoringObjectAddress(_ address: UInt64) -> Device {
        guard address != 0, let rawDescription else { return self }
        var device = self
        device.rawDescription = Self.restoringObjectAddress(address, to: rawDescription)
        return device
    }

    /// The value of a lowercase hexadecimal digit, `nil` for any other byte.
    private static func lowercaseHexDigit(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }
}

extension Provenance {
    /// This provenance as the store's source dictionary keeps it (its device's description
    /// without the object address), and the address (0 when there is none).
    package var splittingDeviceAddress: (provenance: Provenance, address: UInt64) {
        guard let device else { return (self, 0) }
        let split = device.splittingObjectAddress
        guard split.address != 0 else { return (self, 0) }
        var provenance = self
        provenance.device = split.device
        return (provenance, split.address)
    }

    /// This provenance with a sample's device address put back (itself for address 0).
    package func restoringDeviceAddress(_ address: UInt64) -> Provenance {
        guard address != 0, let device else { return self }
        var provenance = self
        provenance.device = device.restoringObjectAddress(address)
        return provenance
    }
}
