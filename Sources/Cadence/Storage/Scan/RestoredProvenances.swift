//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A snapshot's provenances with each row's device object address put back, each distinct
/// (provenance number, address) pair restored once for a query's reader: rows of one device
/// mostly share an address, and rebuilding its description for every row was most of a
/// listing's work (<doc:HowCadenceComputes#Identity>).
///
/// The memo holds at most ``capacity`` pairs, so a store whose every row has an address of its
/// own (an export's addresses are often new on each record) restores those rows one by one
/// instead of keeping a second copy of every description.
package struct RestoredProvenances {
    /// The most pairs kept.
    package static let capacity = 4_096

    /// The snapshot's provenances, by number, as the source dictionary keeps them.
    package let stored: [Provenance]
    private var restored: [Pair: Provenance] = [:]
    /// The pair the previous row asked for: consecutive rows mostly come from one device, and
    /// comparing two integers costs far less than hashing the pair.
    private var last: (pair: Pair, provenance: Provenance)?

    private struct Pair: Hashable {
        var number: Int
        var address: UInt64
    }

    /// Restores for rows whose provenance numbers index `stored`.
    package init(_ stored: [Provenance]) {
        self.stored = stored
    }

    /// The provenance numbered `number` with `address` put back into its device's description;
    /// `nil` for a number outside the dictionary.
    ///
    /// - Complexity: O(1) for a pair met before, else O(*d*) for a description of *d* bytes.
    package mutating func provenance(_ number: Int, address: UInt64) -> Provenance? {
        guard number >= 0, number < stored.count else { return nil }
        guard address != 0 else { return stored[number] }
        let pair = Pair(number: number, address: address)
        if let last, last.pair == pair { return last.provenance }
        let provenance: Provenance
        if let known = restored[pair] {
            provenance = known
        } else {
            provenance = stored[number].restoringDeviceAddress(address)
            if restored.count < Self.capacity { restored[pair] = provenance }
        }
        last = (pair, provenance)
        return provenance
    }

    /// The provenance of a stored row, its device address put back; `nil` for a provenance
    /// number outside the dictionary.
    package mutating func provenance(of columns: SampleColumns, row: Int) -> Provenance? {
        provenance(Int(columns.provenance[row]), address: columns.deviceAddress(at: row))
    }
}
