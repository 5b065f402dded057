//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where decoded rows' payloads stay until asked for: the chunk file they were decoded from
/// (``ChunkPayloads``), which ``SampleColumns`` refers to through this so that columns know no
/// chunk file.
package protocol RowPayloadSource: AnyObject, Sendable {
    /// The file the payloads are read from, for error messages.
    var path: String { get }

    /// The payload of `row` (counted among the rows these are the payloads of), or `nil` when it has none.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when the payload is damaged.
    func payload(atRow row: Int) throws -> [UInt8]?
}
