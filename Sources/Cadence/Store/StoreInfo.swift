//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What a store holds and what it costs on disk (`cadence info`).
public struct StoreInfo: Sendable, Codable {
    /// One type's figures.
    public struct TypeInfo: Sendable, Codable {
        /// The type's identifier.
        public var identifier: String
        /// The kind of sample the type holds.
        public var kind: SampleKind
        /// The canonical unit of a quantity type; `nil` for the other kinds, which have none.
        public var unit: String?
        /// Samples present (deleted ones excluded), as a sample query lists them: a series sample
        /// counts once, whatever its number of entries.
        public var samples: Int
        /// Series samples among ``samples`` (<doc:HowCadenceComputes#Quantity-series>).
        public var seriesSamples: Int
        /// The entries of those series samples.
        public var seriesEntries: Int
        /// Distinct sources.
        public var sources: [String]
        /// The earliest start and latest end.
        public var firstStart: Date?
        public var lastEnd: Date?
        /// Chunk files.
        public var chunks: Int
        /// Bytes of chunk files.
        public var bytesOnDisk: Int
        /// Rows not yet flushed into chunks (they are in the write-ahead log): samples, and a
        /// series sample's owner and entries each count once.
        public var unflushedSamples: Int
        /// Bytes per flushed row, explicit UUIDs included: per sample, and per series owner and
        /// entry.
        public var bytesPerSample: Double?
    }

    /// The store's directory.
    public var path: String
    /// The store's identity.
    public var storeIdentifier: UUID
    /// The last change sequence.
    public var lastSequence: Int64
    /// Per type, sorted by identifier.
    public var types: [TypeInfo]
    /// All samples.
    public var totalSamples: Int
    /// All chunk bytes.
    public var totalChunkBytes: Int
    /// Bytes of the manifest and the write-ahead log.
    public var metadataBytes: Int
    /// Retained deleted objects.
    public var deletedObjects: Int
    /// Bytes at the end of the write-ahead log left by a write that never finished (a save cut
    /// short by a crash, never acknowledged); dropped when the store is next opened for writing.
    public var unfinishedLogBytes: Int
}

extension HealthStore {
    /// Figures about the store, from the manifest's outline of each type's chunks (no chunk list
    /// is read, no chunk decompressed but those of series owners, whose entry counts they hold).
    /// A quantity type's series owners count under the type, as its series samples, their
    /// entries not as samples; the owners' chunks and bytes are the type's.
    ///
    /// - Complexity: O(*t*) for *t* types, plus the unflushed batches and the series owners.
    public func info() throws -> StoreInfo {
        let snapshot = snapshot()
        var types: [StoreInfo.TypeInfo] = []
        for (identifier, type) in snapshot.types.sorted(by: { $0.key < $1.key })
        where !QuantitySeriesStorage.isOwnerSeries(identifier) {
            var parts = [type]
            var series = (samples: 0, entries: 0)
            if type.type.kind == .quantity, let owners = snapshot.types[QuantitySeriesStorage.ownerSeries(of: type.type).identifier] {
                parts.append(owners)
                series = (owners.sampleCount, try QuantitySeriesStorage.entryCount(of: owners, provenances: snapshot.provenances))
            }
            let summaries = parts.flatMap(\.outlineSummaries)
            let names = Set(summaries.flatMap(\.provenances).compactMap {
                Int($0) < snapshot.provenances.count ? snapshot.provenances[Int($0)].source.name : nil
            })
            let flushed = parts.reduce(0) { $0 + $1.flushed.outline.summary.count }
            let bytes = parts.reduce(0) { $0 + $1.flushed.outline.byteCount }
            let first = summaries.filter { $0.count > 0 }.map(\.minimumStart).min()
            let last = summaries.filter { $0.count > 0 }.map(\.maximumEnd).max()
            types.append(StoreInfo.TypeInfo(
                identifier: identifier, kind: type.type.kind,
                unit: type.type.kind == .quantity ? type.type.canonicalUnit.unitString : nil,
                samples: type.sampleCount - series.entries + series.samples, seriesSamples: series.samples,
                seriesEntries: series.entries,
                sources: names.sorted(), firstStart: first.map { Date(timestamp: $0) }, lastEnd: last.map { Date(timestamp: $0) },
                chunks: parts.reduce(0) { $0 + $1.flushed.outline.chunkCount }, bytesOnDisk: bytes,
                unflushedSamples: parts.reduce(0) { $0 + $1.headCount },
                bytesPerSample: flushed > 0 ? Double(bytes) / Double(flushed) : nil))
        }
        var metadataBytes = 0
        for name in (try? fileSystem.contentsOfDirectory(path)) ?? [] where name == Manifest.fileName || name.hasSuffix(".log") {
            metadataBytes += (try? fileSystem.fileSize(path + "/" + name)) ?? 0
        }
        let logPath = currentLogPath()
        let unfinished = (try? fileSystem.readFile(logPath)).map { try? WriteAheadLog.inspectTail($0, path: logPath).get() } ?? 0
        return StoreInfo(path: path, storeIdentifier: snapshot.storeIdentifier, lastSequence: snapshot.lastSequence,
                         types: types, totalSamples: types.reduce(0) { $0 + $1.samples },
                         totalChunkBytes: types.reduce(0) { $0 + $1.bytesOnDisk }, metadataBytes: metadataBytes,
                         deletedObjects: snapshot.deletedObjectCount, unfinishedLogBytes: unfinished ?? 0)
    }

    /// Checks every checksum of every chunk list and chunk file and the end of the write-ahead
    /// log (the rest of the log and the manifest were checked by opening).
    ///
    /// A log that ends in a torn append (a save a crash cut short, never acknowledged) is not
    /// damage; ``StoreInfo/unfinishedLogBytes`` reports it. A last record damaged in place is.
    ///
    /// - Returns: The problems found, one per damaged file; empty when the store is intact.
    /// - Complexity: O(*n*): every chunk is read and decoded.
    public func verify() -> [CadenceError] {
        var problems: [CadenceError] = []
        let logPath = currentLogPath()
        do {
            if case .failure(let damage) = WriteAheadLog.inspectTail(try fileSystem.readFile(logPath), path: logPath) {
                problems.append(damage)
            }
        } catch let error as CadenceError where error.code == .notFound {
            // A writer in another process moved on to a new segment: this one is flushed.
        } catch let error as CadenceError {
            problems.append(error)
        } catch {
            problems.append(CadenceError(.io, "\(error)", path: logPath))
        }
        for type in snapshot().types.values {
            // Read from disk again, whatever is in memory: every record's checksum.
            do { _ = try type.deletions.file?.read(in: path, fileSystem: fileSystem) } catch let error as CadenceError {
                problems.append(error)
            } catch {
                problems.append(CadenceError(.corruptFile, "\(error)", path: path))
            }
            do { try type.flushed.verifyOnDisk() } catch let error as CadenceError {
                problems.append(error)
                continue
            } catch {
                problems.append(CadenceError(.corruptFile, "\(error)", path: path))
                continue
            }
            for chunk in type.chunks {
                do { try chunk.verifyOnDisk() } catch let error as CadenceError { problems.append(error) } catch {
                    problems.append(CadenceError(.corruptFile, "\(error)", path: chunk.path))
                }
            }
        }
        return problems.sorted { ($0.path ?? "") < ($1.path ?? "") }
    }
}
