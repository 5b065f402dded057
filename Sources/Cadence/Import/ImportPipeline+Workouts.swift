//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ImportPipeline {
    /// The most route points of workouts handed to one save: the workouts of a batch go to the
    /// store in groups of about this many points, so that the routes being encoded and saved, and
    /// those waiting for the store's next flush, stay bounded whatever the batch holds.
    static let routePointsPerSave = 1 << 18

    /// Takes the workouts the collector read since the last batch, numbers look-alike workouts in
    /// file order (their identity, <doc:HowCadenceComputes#Identity>), reads their routes' GPX files, saves them (a workout
    /// already stored counts as a duplicate) and hands them to ``HealthDataImporter/workoutHandler``.
    ///
    /// A route file that is missing or cannot be read is reported in
    /// ``ImportSummary/routeIssues`` (once, with the first workout that names it); its workout still comes out, the route with its path and no
    /// points (<doc:HowCadenceComputes#Categories-workouts-and-correlations>). A route longer than ``HealthDataImporter/routeLimits`` allows, or than
    /// what is left of ``HealthDataImporter/routePointBudget``, keeps its first points and is
    /// reported with how many it had; so is a route of inline `<Location>` elements. A file that
    /// several workouts name is read once (see ``RouteFileCache``); each workout's copy of its
    /// points counts against the budget, as each is stored.
    mutating func saveWorkouts() throws {
        let read = collector.takeWorkouts()
        guard !read.isEmpty, !dryRun else { return }
        var group: [Workout] = []
        var groupPoints = 0
        for (workout, line) in read {
            var workout = workout
            workout.uuid = workout.derivedUUID(occurrence: Int(try workoutOccurrences.next(workout.identityKey)))
            for index in workout.routes.indices {
                var fromFile = false
                if let reference = workout.routes[index].filePath {
                    fromFile = readRoute(reference, into: &workout.routes[index], workoutLine: line)
                }
                if !fromFile && !workout.routes[index].locations.isEmpty {
                    boundInlineRoute(&workout.routes[index], workoutLine: line)
                }
                groupPoints += workout.routes[index].locations.count
            }
            group.append(workout)
            if groupPoints >= Self.routePointsPerSave {
                try save(group, routePoints: groupPoints)
                group = []
                groupPoints = 0
            }
        }
        if !group.isEmpty { try save(group, routePoints: groupPoints) }
    }

    /// Hands workouts to the saver, their route points counted toward the store's next flush, and
    /// to the importer's handler.
    private func save(_ workouts: [Workout], routePoints: Int) throws {
        try saver.save(QuantitySampleBatch.grouping(workouts, series: { _ in .series(Workout.typeIdentifier) }) {
            try $0.append($1)
        }, weight: routePoints)
        try importer.workoutHandler?(workouts)
    }

    /// Reads one route file into `route` (or takes the reading of a workout before that named the
    /// same file), or reports why it cannot be read: once per file, however many routes name it.
    ///
    /// - Returns: Whether the file was read (its points then replace any inline ones).
    private mutating func readRoute(_ reference: String, into route: inout WorkoutRoute, workoutLine: Int) -> Bool {
        guard !unreadableRouteFiles.contains(reference) else { return false }
        guard let routeFiles else {
            unreadableRouteFiles.insert(reference)
            collector.summary.reportRoute(line: workoutLine, "its route file \(reference) was not read: "
                                          + "the import has no folder or archive to find it in")
            return false
        }
        let budget = importer.routePointBudget - routePointsKept
        guard budget > 0 else {
            collector.summary.reportRoute(
                line: workoutLine, "its route file \(reference) was not read: the import's routes already hold "
                    + "\(routePointsKept) points, the most one import keeps")
            return false
        }
        switch routeCache.reading(reference, from: routeFiles, limits: importer.routeLimits) {
        case .failure(let error):
            unreadableRouteFiles.insert(reference)
            collector.summary.reportRoute(line: workoutLine, "its route file \(reference) cannot be read: \(error.description)")
            return false
        case .success(let (locations, read)):
            let kept = min(locations.count, budget)
            route.locations = locations
            route.locations.keepFirst(kept)
            routePointsKept += kept
            collector.summary.workoutRoutes += 1
            if read.skippedPointCount > 0, let first = read.issues.first {
                collector.summary.reportRoute(
                    line: workoutLine, "\(read.skippedPointCount) point(s) of its route file \(reference) were "
                        + "skipped; the first at line \(first.line): \(first.reason)")
            }
            let total = locations.count + read.droppedPointCount
            if total > kept {
                collector.summary.reportRoute(
                    line: workoutLine, "its route file \(reference) has \(total) points, more than "
                        + "\(bound(min(importer.routeLimits.maxPoints, budget))): only its first \(kept) are stored")
            }
            return true
        }
    }

    /// Holds a route read inline (`<Location>` elements of export.xml) to the bounds a route file
    /// is read with.
    private mutating func boundInlineRoute(_ route: inout WorkoutRoute, workoutLine: Int) {
        let count = route.locations.count
        let left = importer.routePointBudget - routePointsKept
        let kept = min(count, importer.routeLimits.maxPoints, max(0, left))
        route.locations.keepFirst(kept)
        routePointsKept += kept
        guard kept < count else { return }
        collector.summary.reportRoute(
            line: workoutLine, kept == 0
                ? "its route of \(count) <Location> points is not stored: the import's routes already hold "
                    + "\(routePointsKept) points, the most one import keeps"
                : "its route has \(count) <Location> points, more than \(bound(kept)): only its first \(kept) are stored")
    }

    /// What held a route to `limit` points: the limit of one route, or what is left of the import's.
    private func bound(_ limit: Int) -> String {
        limit < importer.routeLimits.maxPoints
            ? "what is left of the \(importer.routePointBudget) points one import keeps"
            : "the \(limit) points a route keeps"
    }
}

extension ImportSummary {
    /// Counts a route problem of the workout at `line`, keeping the first few with their reasons.
    mutating func reportRoute(line: Int, _ reason: String) {
        routeIssueCount += 1
        if routeIssues.count < Self.keptRejections {
            routeIssues.append(Rejection(line: line, reason: "a workout: " + reason))
        }
    }
}
