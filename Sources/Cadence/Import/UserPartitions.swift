//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The users of a user-partitioned input (CSV or Arrow), one at a time: the current user's rows
/// are collected, and what they make (an in-memory store, or a snapshot of one type) is handed
/// over as soon as another user's row arrives or the input ends.
///
/// Users are told apart byte for byte (see <doc:HowCadenceComputes#Identity>), and a user whose
/// rows come back after another user's is an error: the input must be grouped by user.
struct UserPartitions<Collected> {
    /// What a user's collected rows are handed over as.
    typealias Body = (_ user: String, _ collected: Collected, _ summary: ImportSummary) throws -> Void

    /// The input's name in errors and summaries.
    let name: String
    /// The user whose rows ``collector`` holds, if any.
    private(set) var user: String?
    /// The current user's samples; an empty collector when there is none.
    private var collector: SampleCollector
    private let newCollector: () -> SampleCollector
    /// Turns a user's collector into what is handed over.
    private let take: (inout SampleCollector) throws -> Collected
    private var finished = Set<ExactString>()

    init(name: String, newCollector: @escaping () -> SampleCollector, take: @escaping (inout SampleCollector) throws -> Collected) {
        self.name = name
        self.newCollector = newCollector
        self.take = take
        collector = newCollector()
    }

    /// How many users have been handed over.
    var count: Int { finished.count }

    /// Adds a row of `user`: to the current user's collector, or, when the user changes, to a
    /// new one after the current user has been handed to `body`.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` at `line` for an empty user or one whose
    ///   rows are not consecutive; what `body` and `take` throw.
    mutating func rows(of user: String, line: Int, userColumn: String, body: Body,
                       add: (inout SampleCollector) throws -> Void) throws {
        if self.user.map({ !$0.isIdentical(to: user) }) ?? true {
            try begin(user, line: line, userColumn: userColumn, body: body)
        }
        try add(&collector)
    }

    /// Starts `user`'s rows, handing the current user to `body` first.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` at `line` for an empty user or one whose
    ///   rows are not consecutive; what `body` and `take` throw.
    mutating func begin(_ user: String, line: Int, userColumn: String, body: Body) throws {
        guard !user.isEmpty else {
            throw CadenceError(.malformedInput, "the row has no user in column '\(userColumn)'", path: name, line: line)
        }
        try finish(body: body)
        guard !finished.contains(ExactString(user)) else {
            throw CadenceError(.malformedInput, "the rows of user '\(user)' are not consecutive: sort the input by user",
                               path: name, line: line)
        }
        self.user = user
    }

    /// Adds a row of the current user (the caller checked that it is one).
    mutating func addToCurrentUser(_ add: (inout SampleCollector) throws -> Void) rethrows { try add(&collector) }

    /// Hands the current user's collected rows to `body`; nothing when there is none.
    mutating func finish(body: Body) throws {
        guard let user else { return }
        self.user = nil
        var done = collector
        collector = newCollector()
        let collected = try take(&done)
        finished.insert(ExactString(user))
        try body(user, collected, done.summary)
    }
}

extension UserPartitions where Collected == HealthStore {
    /// Users handed over as in-memory stores holding every sample collected for them.
    init(name: String) {
        self.init(name: name, newCollector: { SampleCollector(store: HealthStore.inMemory(), path: name, dryRun: false) }) { collector in
            try collector.saveUserSamples()
            return collector.store
        }
    }
}

extension UserPartitions where Collected == StoreSnapshot {
    /// Users handed over as snapshots of the samples of `type` collected for them (see
    /// ``SampleCollector/takeUserSnapshot(of:)``); `store` is only for the collector's look-ups
    /// of unknown types, which a known type never makes.
    init(name: String, type: QuantityType, store: HealthStore) {
        self.init(name: name, newCollector: { SampleCollector(store: store, path: name, dryRun: false) }) { collector in
            try collector.takeUserSnapshot(of: type)
        }
    }
}
