//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ImportPipeline {
    /// Takes the workouts the collector read since the last batch, numbers look-alike workouts in
    /// file order (their identity, SPEC §1), reads their routes' GPX files, saves them (a workout
    /// already stored counts as a duplicate) and hands them to ``HealthDataImporter/workoutHandler``.
    ///
    /// A route file that is missing or cannot be read is reported in
    /// ``ImportSummary/routeIssues``; its workout still comes out, the route with its path and no
    /// points (SPEC §13).
    mutating func saveWorkouts() throws {
        let read = collector.takeWorkouts()
        guard !read.isEmpty, !dryRun else { return }
        var workouts: [Workout] = []
        workouts.reserveCapacity(read.count)
        for (workout, line) in read {
            var workout = workout
            workout.uuid = workout.derivedUUID(occurrence: Int(workoutOccurrences.next(workout.identityKey)))
            for index in workout.routes.indices {
                guard let reference = workout.routes[index].filePath else { continue }
                readRoute(reference, into: &workout.routes[index], workoutLine: line)
            }
            workouts.append(workout)
        }
        try saver.save(QuantitySampleBatch.grouping(workouts, series: { _ in .series(Workout.typeIdentifier) }) {
            try $0.append($1)
        })
        try importer.workoutHandler?(workouts)
    }

    /// Reads one route file into `route`, or reports why it cannot be read.
    private mutating func readRoute(_ reference: String, into route: inout WorkoutRoute, workoutLine: Int) {
        guard let routeFiles else {
            return collector.summary.reportRoute(line: workoutLine, "its route file \(reference) was not read: "
                                                 + "the import has no folder or archive to find it in")
        }
        do {
            let (locations, read) = try routeFiles.read(reference)
            route.locations = locations
            collector.summary.workoutRoutes += 1
            if read.skippedPointCount > 0, let first = read.issues.first {
                collector.summary.reportRoute(
                    line: workoutLine, "\(read.skippedPointCount) point(s) of its route file \(reference) were "
                        + "skipped; the first at line \(first.line): \(first.reason)")
            }
        } catch {
            let reason = (error as? CadenceError)?.description ?? "\(error)"
            collector.summary.reportRoute(line: workoutLine, "its route file \(reference) cannot be read: \(reason)")
        }
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
