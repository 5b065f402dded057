//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What one day of the realistic profile holds in a modern export besides quantity samples:
/// sleep from three sources, mindful sessions, symptoms, blood pressure and food correlations,
/// and the day's workout with its events, statistics and route.
struct SyntheticExportElements {
    /// A `<Record>` of a category type, its value as the export names it.
    struct CategoryRecord {
        var type: String
        var value: String
        var start: Timestamp
        var end: Timestamp
        var provenance: Provenance
    }

    /// A `<Correlation>` and its member records (each also written at top level, as exports do).
    struct Correlation {
        var type: String
        var time: Timestamp
        var provenance: Provenance
        var metadata: [String: String]
        var members: [(type: QuantityType, value: Double)]
    }

    var categoryRecords: [CategoryRecord] = []
    var correlations: [Correlation] = []
    /// Workouts with their routes' points; each route's ``WorkoutRoute/filePath`` names its GPX file.
    var workouts: [Workout] = []
}

extension SyntheticHealthData {
    /// The third-party sleep tracker whose nights overlap the Watch's (`AutoSleep`).
    public static let sleepAppProvenance = Provenance(
        source: Source(name: "AutoSleep", bundleIdentifier: "com.tantsissa.AutoSleep"), sourceVersion: "6.9.2")

    /// The food diary app whose meals are `HKCorrelationTypeIdentifierFood` correlations (`MyFitnessPal`).
    public static let foodAppProvenance = Provenance(
        source: Source(name: "MyFitnessPal", bundleIdentifier: "com.myfitnesspal.mfp"), sourceVersion: "24.2.0")

    /// Where the synthetic routes start: a park in Zürich.
    static let home = (latitude: 47.3586, longitude: 8.5463)

    private static let foods: [(name: String, energy: Double, protein: Double, carbohydrates: Double, fat: Double)] = [
        ("Oatmeal with berries", 320, 11, 54, 7), ("Chicken salad", 450, 35, 20, 24),
        ("Pasta bolognese", 680, 28, 85, 22), ("Greek yogurt", 150, 15, 8, 6), ("Banana", 104.6, 1.3, 27, 0.4),
    ]

    private static let symptoms = ["HKCategoryTypeIdentifierHeadache", "HKCategoryTypeIdentifierFatigue",
                                   "HKCategoryTypeIdentifierRunnyNose", "HKCategoryTypeIdentifierCoughing"]

    /// The elements of day `day` (0-based) beyond quantity samples; none for the dense profile.
    ///
    /// Drawn from a random stream of their own, after the day's plan (the same plan its quantity
    /// samples follow: the workout is the heart rate burst, the night ends when steps begin), so
    /// they change nothing in ``generate(batchSize:_:)``'s output.
    func exportElements(day: Int) -> SyntheticExportElements {
        var elements = SyntheticExportElements()
        guard profile == .realistic else { return elements }
        var plan = DayPlan()
        var planRandom = SeededRandom(seed: seed, stream: UInt64(day))
        plan.draw(using: &planRandom)
        var previousBedtime = plan.wake - 8 * 3_600 + 86_400
        if day > 0 {
            var previous = DayPlan()
            var previousRandom = SeededRandom(seed: seed, stream: UInt64(day - 1))
            previous.draw(using: &previousRandom)
            previousBedtime = previous.bedtime
        }
        var random = SeededRandom(seed: seed, stream: UInt64(day) | 1 << 62)
        let dayStart = startTimestamp + Int64(day) * Self.microsecondsPerDay
        func time(_ second: Int) -> Timestamp { dayStart + Int64(second) * Self.microsecondsPerSecond }
        func record(_ type: String, _ value: String, _ start: Int, _ end: Int, _ provenance: Provenance) {
            elements.categoryRecords.append(SyntheticExportElements.CategoryRecord(
                type: type, value: value, start: time(start), end: time(end), provenance: provenance))
        }

        // The night before: the iPhone's time in bed, the Watch's stages, the sleep app's estimate.
        let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
        let value = "HKCategoryValueSleepAnalysis"
        let lightsOut = previousBedtime - 86_400
        record(sleepType, value + "InBed", lightsOut - random.integer(in: 300...1_200),
               plan.wake + random.integer(in: 300...900), Self.phoneProvenance)
        var second = lightsOut + random.integer(in: 300...1_200)
        let sleepStart = second
        let wakeUp = plan.wake - random.integer(in: 0...300)
        var cycle = 0
        while second < wakeUp - 600 {
            let length = random.integer(in: 4_800...6_600)
            let deep = cycle < 2 ? random.integer(in: 900...1_500) : random.integer(in: 0...480)
            let rem = cycle == 0 ? random.integer(in: 300...600) : random.integer(in: 900...1_800)
            let awake = random.chance(0.4) ? random.integer(in: 60...300) : 0
            let core = max(600, length - deep - rem - awake)
            for (stage, seconds) in [("AsleepCore", core / 2), ("AsleepDeep", deep), ("AsleepCore", core - core / 2),
                                     ("AsleepREM", rem), ("Awake", awake)] where seconds > 0 && second < wakeUp {
                let end = min(second + seconds, wakeUp)
                record(sleepType, value + stage, second, end, Self.watchProvenance)
                second = end
            }
            cycle += 1
        }
        let appStart = sleepStart + random.integer(in: -900...900)
        let appEnd = plan.wake - random.integer(in: 0...1_200)
        if random.chance(0.3) {
            let gap = appStart + (appEnd - appStart) / 2
            record(sleepType, value + "AsleepUnspecified", appStart, gap, Self.sleepAppProvenance)
            record(sleepType, value + "AsleepUnspecified", gap + random.integer(in: 300...1_200), appEnd,
                   Self.sleepAppProvenance)
        } else {
            record(sleepType, value + "AsleepUnspecified", appStart, appEnd, Self.sleepAppProvenance)
        }

        // A mindful minute or a ten-minute session on some days; a symptom now and then.
        if random.chance(0.35) {
            let start = random.integer(in: (plan.wake + 3_600)...(plan.bedtime - 3_600))
            record("HKCategoryTypeIdentifierMindfulSession", "HKCategoryValueNotApplicable", start,
                   start + (random.chance(0.5) ? 60 : 600), Self.watchProvenance)
        }
        if random.chance(0.12) {
            let start = random.integer(in: plan.wake...(plan.bedtime - 14_400))
            let type = Self.symptoms[random.integer(in: 0...(Self.symptoms.count - 1))]
            let severity = ["Mild", "Moderate", "Severe"][random.integer(in: 0...2)]
            record(type, "HKCategoryValueSeverity" + severity, start, start + random.integer(in: 3_600...14_400),
                   Self.phoneProvenance)
        }

        // Blood pressure some mornings, from the scale's app; meals from the food diary.
        if random.chance(0.4) {
            let at = time(plan.wake + random.integer(in: 300...1_200))
            elements.correlations.append(SyntheticExportElements.Correlation(
                type: "HKCorrelationTypeIdentifierBloodPressure", time: at, provenance: Self.scaleProvenance,
                metadata: [:], members: [(Self.type("bloodPressureSystolic"), Double(random.integer(in: 108...134))),
                                         (Self.type("bloodPressureDiastolic"), Double(random.integer(in: 68...88)))]))
        }
        let meals = [("Breakfast", plan.wake + 1_800, plan.wake + 3_600), ("Lunch", 43_200, 48_600),
                     ("Dinner", 66_600, 72_000)]
        for (meal, earliest, latest) in meals where random.chance(0.6) && latest < plan.bedtime {
            let food = Self.foods[random.integer(in: 0...(Self.foods.count - 1))]
            let portion = 0.8 + 0.5 * random.unitDouble()
            func amount(_ value: Double) -> Double { Self.rounded(value * portion * 10) / 10 }
            elements.correlations.append(SyntheticExportElements.Correlation(
                type: "HKCorrelationTypeIdentifierFood", time: time(random.integer(in: earliest...latest)),
                provenance: Self.foodAppProvenance, metadata: ["HKFoodMeal": meal, "HKFoodType": food.name],
                members: [(Self.type("dietaryEnergyConsumed"), amount(food.energy)), (Self.type("dietaryProtein"), amount(food.protein)),
                          (Self.type("dietaryCarbohydrates"), amount(food.carbohydrates)), (Self.type("dietaryFatTotal"), amount(food.fat))]))
        }

        if let workout = workout(plan, dayStart: dayStart, random: &random) { elements.workouts.append(workout) }
        return elements
    }

    /// The day's run (the heart rate burst of the plan): a route every 5 seconds, a segment event per
    /// kilometre, perhaps a pause, and its statistics; totals only in the statistics, as iOS 16 and
    /// later export them.
    private func workout(_ plan: DayPlan, dayStart: Timestamp, random: inout SeededRandom) -> Workout? {
        func time(_ second: Int) -> Timestamp { dayStart + Int64(second) * Self.microsecondsPerSecond }
        let cadence = plan.bouts.first { $0.isWorkout }?.cadence ?? 150
        let stride = 1.0 + 0.2 * random.unitDouble()
        var heading = 360 * random.unitDouble()
        var latitude = Self.home.latitude + 0.01 * random.bell()
        var longitude = Self.home.longitude + 0.01 * random.bell()
        var altitude = 410 + 20 * random.bell()
        var locations = LocationSeries()
        var events: [WorkoutEvent] = []
        var distance = 0.0
        var nextKilometre = 1_000.0
        var kilometreStart = plan.workoutStart
        let pauseAt = random.chance(0.3) ? random.integer(in: (plan.workoutStart + 600)...(plan.workoutEnd - 600)) : -1
        let pauseLength = random.integer(in: 30...120)
        var second = plan.workoutStart
        while second <= plan.workoutEnd {
            let speed = Self.rounded(cadence * stride / 60 * (1 + 0.05 * random.bell()) * 100) / 100
            heading = (heading + 12 * random.bell() + 360).truncatingRemainder(dividingBy: 360)
            altitude += 0.4 * random.bell()
            locations.append(LocationSeries.Location(
                timestamp: time(second), latitude: Self.rounded(latitude * 1e6) / 1e6,
                longitude: Self.rounded(longitude * 1e6) / 1e6, altitude: Self.rounded(altitude * 100) / 100,
                speed: speed, course: Self.rounded(heading * 10) / 10,
                horizontalAccuracy: Self.rounded((3 + 2 * random.unitDouble()) * 10) / 10,
                verticalAccuracy: Self.rounded((2 + 2 * random.unitDouble()) * 10) / 10))
            if second >= pauseAt && second < pauseAt + pauseLength {
                second += 5
                continue
            }
            let metres = speed * 5
            latitude += metres * cos(heading * .pi / 180) / 111_195
            longitude += metres * sin(heading * .pi / 180) / (111_195 * cos(latitude * .pi / 180))
            distance += metres
            if distance >= nextKilometre {
                events.append(WorkoutEvent(type: .segment, date: Date(timestamp: time(kilometreStart)),
                                           duration: Double(second + 5 - kilometreStart)))
                kilometreStart = second + 5
                nextKilometre += 1_000
            }
            second += 5
        }
        if pauseAt >= 0 {
            events.append(WorkoutEvent(type: .pause, date: Date(timestamp: time(pauseAt))))
            events.append(WorkoutEvent(type: .resume, date: Date(timestamp: time(pauseAt + pauseLength))))
            events.sort { $0.date < $1.date }
        }
        let start = Date(timestamp: time(plan.workoutStart))
        let end = Date(timestamp: time(plan.workoutEnd))
        let active = Double(plan.workoutEnd - plan.workoutStart - (pauseAt >= 0 ? pauseLength : 0))
        let minutes = active / 60
        let statistics = [
            WorkoutStatistics(quantityType: .activeEnergyBurned, startDate: start, endDate: end,
                              sum: Self.rounded(10.5 * minutes * (1 + 0.05 * random.bell()) * 10) / 10, unit: .kilocalorie),
            WorkoutStatistics(quantityType: Self.type("basalEnergyBurned"), startDate: start, endDate: end,
                              sum: Self.rounded(1.1 * minutes * 10) / 10, unit: .kilocalorie),
            WorkoutStatistics(quantityType: .distanceWalkingRunning, startDate: start, endDate: end,
                              sum: Self.rounded(distance), unit: .meter),
            WorkoutStatistics(quantityType: .stepCount, startDate: start, endDate: end,
                              sum: Self.rounded(cadence * minutes), unit: .count),
            WorkoutStatistics(quantityType: .heartRate, startDate: start, endDate: end,
                              average: Self.rounded(plan.workoutHeartRate - 4), minimum: Self.rounded(plan.restingHeartRate + 30),
                              maximum: Self.rounded(plan.workoutHeartRate + 12), unit: .countPerMinute),
        ]
        let created = Date(timestamp: time(plan.workoutEnd + random.integer(in: 30...120)))
        let route = WorkoutRoute(
            source: Self.watchProvenance.source, sourceVersion: Self.watchProvenance.sourceVersion,
            device: Self.watchProvenance.device, creationDate: created, startDate: start, endDate: end,
            filePath: "/workout-routes/" + Self.routeFileName(time(plan.workoutStart)), locations: locations)
        guard var workout = try? Workout(
            activityType: .running, start: start, end: end, duration: active, source: Self.watchProvenance.source,
            sourceVersion: Self.watchProvenance.sourceVersion, device: Self.watchProvenance.device,
            creationDate: created, metadata: ["HKIndoorWorkout": "0", "HKTimeZone": "Europe/Zurich"],
            events: events, statistics: statistics, routes: [route]) else { return nil }
        workout.uuid = workout.derivedUUID()
        return workout
    }

    /// A type of the table by its short name.
    private static func type(_ name: String) -> QuantityType { QuantityType.known(name) ?? .unknown(name, unit: .count) }

    /// The Health app's name for a route file: `route_2024-01-01_5.05pm.gpx` (the start, in UTC).
    static func routeFileName(_ start: Timestamp) -> String {
        let text = Array(formatRFC3339(start, secondsFromGMT: 0))  // 2024-01-01T17:05:00Z
        let hour = (Int(String(text[11...12])) ?? 0)
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "route_\(String(text[0...9]))_\(twelve).\(String(text[14...15]))\(hour < 12 ? "am" : "pm").gpx"
    }
}
