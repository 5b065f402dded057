#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes one hostile-but-valid import input: many of one thing an import might keep in memory.

    hostile.py KIND PATH [--count N]

Every file is well formed; what makes it hostile is a count or a length that real exports never
reach. The kinds and their default counts are listed in KINDS.
"""
import argparse
import datetime
import zipfile

HEADER = "type,sourceName,unit,startDate,endDate,value"


def day(index):
    """A date, one second apart per index, inside 2024."""
    second = index % (366 * 86_400)
    return "2024-01-01 00:00:00 +0000" if second == 0 else \
        "2024-%02d-%02d %02d:%02d:%02d +0000" % (1 + second // (31 * 86_400) % 12, 1 + second // 86_400 % 28,
                                                  second // 3600 % 24, second // 60 % 60, second % 60)


def csv_rows(out, count, row):
    for index in range(count):
        out.write(row(index))


def sources(out, count):
    """Distinct source names, one a row (the source dictionary)."""
    out.write(HEADER + "\n")
    csv_rows(out, count, lambda i: "HKQuantityTypeIdentifierStepCount,S%07d,count,%s,%s,%d\n"
             % (i, day(i), day(i), i % 100))


def types(out, count):
    """Distinct unknown quantity types, one a row (a batch, a head and a chunk each)."""
    out.write(HEADER + "\n")
    csv_rows(out, count, lambda i: "HKQuantityTypeIdentifierMade%07d,Phone,count,%s,%s,1\n" % (i, day(i), day(i)))


def devices(out, count):
    """Distinct device descriptions, one a row."""
    out.write(HEADER + ",device\n")
    csv_rows(out, count, lambda i: "HKQuantityTypeIdentifierStepCount,Phone,count,%s,%s,1,"
             "\"<<HKDevice: 0x%012x>, name:Watch, model:Watch, hardware:Watch%d,%d, software:%d>\"\n"
             % (day(i), day(i), i, i, i, i))


def values(out, count):
    """Rows of long metadata values (64 KiB each, all distinct)."""
    out.write(HEADER + ",metadata:note\n")
    filler = "x" * (64 << 10)
    csv_rows(out, count, lambda i: "HKQuantityTypeIdentifierStepCount,Phone,count,%s,%s,1,%08d%s\n"
             % (day(i), day(i), i, filler[8:]))


def keys(out, count):
    """Rows whose metadata keys are all distinct: 16 metadata columns, one key set a row."""
    columns = ["metadata:key%02d" % k for k in range(16)]
    out.write(HEADER + "," + ",".join(columns) + "\n")
    csv_rows(out, count, lambda i: "HKQuantityTypeIdentifierStepCount,Phone,count,%s,%s,1,%s\n"
             % (day(i), day(i), ",".join("%d-%d" % (i, k) for k in range(16))))


XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'


def reversed_rows(out, count):
    """Heart-rate rows one second apart, newest first: every save starts before what is stored."""
    start = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    out.write(HEADER + "\n")
    for index in reversed(range(count)):
        stamp = (start + datetime.timedelta(seconds=index)).strftime("%Y-%m-%d %H:%M:%S +0000")
        out.write("HKQuantityTypeIdentifierHeartRate,Watch,count/min,%s,%s,%d\n" % (stamp, stamp, 60 + index % 60))


def record(type_, index, extra="", children=""):
    tag = ' <Record type="%s" sourceName="Phone" unit="count" startDate="%s" endDate="%s" value="1"%s' \
        % (type_, day(index), day(index), extra)
    return tag + (">\n" + children + " </Record>\n" if children else "/>\n")


def xml_types(out, count):
    """Distinct unknown types in export.xml."""
    out.write(XML_HEAD)
    for i in range(count):
        out.write(record("HKQuantityTypeIdentifierMade%07d" % i, i))
    out.write("</HealthData>\n")


def xml_metadata(out, count):
    """One record whose metadata dictionary holds `count` entries of 1 MiB values (the most one record may have: 1024)."""
    out.write(XML_HEAD)
    value = "v" * ((1 << 20) - 16)
    entries = "".join('  <MetadataEntry key="key%05d" value="%08d%s"/>\n' % (k, k, value) for k in range(count))
    out.write(record("HKQuantityTypeIdentifierStepCount", 1, children=entries))
    out.write("</HealthData>\n")


def correlations(out, count):
    """Blood-pressure correlations, two members each, with no top-level twins."""
    out.write(XML_HEAD)
    for i in range(count):
        d = day(i)
        out.write(' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" '
                  'startDate="%s" endDate="%s">\n' % (d, d))
        for member, value in (("Systolic", 120 + i % 20), ("Diastolic", 80 + i % 10)):
            out.write('  <Record type="HKQuantityTypeIdentifierBloodPressure%s" sourceName="Cuff" unit="mmHg" '
                      'startDate="%s" endDate="%s" value="%d"/>\n' % (member, d, d, value))
        out.write(" </Correlation>\n")
    out.write("</HealthData>\n")


def summaries(out, count):
    """Activity summaries, one a day going back from 9999."""
    out.write(XML_HEAD)
    for i in range(count):
        year, rest = 9999 - i // 336, i % 336
        out.write(' <ActivitySummary dateComponents="%04d-%02d-%02d" activeEnergyBurned="%d" activeEnergyBurnedGoal="500" '
                  'activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="%d" '
                  'appleExerciseTimeGoal="30" appleStandHours="%d" appleStandHoursGoal="12"/>\n'
                  % (year, 1 + rest // 28, 1 + rest % 28, i % 900, i % 60, i % 24))
    out.write("</HealthData>\n")


def clinical(path, count):
    """An export.zip of `count` FHIR clinical records."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("apple_health_export/export.xml", XML_HEAD + record("HKQuantityTypeIdentifierStepCount", 1)
                         + ''.join(' <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="r%d" '
                                   'sourceName="Clinic" sourceURL="https://fhir.example/Observation/%d" '
                                   'fhirVersion="4.0.1" receivedDate="%s" '
                                   'resourceFilePath="/clinical-records/Observation-%d.json"/>\n' % (i, i, day(i), i)
                                   for i in range(count))
                         + "</HealthData>\n")
        for i in range(count):
            archive.writestr("apple_health_export/clinical-records/Observation-%d.json" % i,
                             '{"resourceType":"Observation","id":"%d","status":"final","code":{"text":"Glucose"},'
                             '"effectiveDateTime":"2024-01-01T08:00:00Z","valueQuantity":{"value":%d,"unit":"mg/dL"}}'
                             % (i, 80 + i % 40))


def route(path, count):
    """An export.zip whose 64 workouts all name one GPX route of `count` points."""
    workouts = "".join(
        ' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Watch" '
        'startDate="2024-%02d-%02d 07:05:00 +0200" endDate="2024-%02d-%02d 07:35:00 +0200">\n'
        '  <WorkoutRoute sourceName="Watch"><FileReference path="/workout-routes/route.gpx"/></WorkoutRoute>\n'
        ' </Workout>\n' % (1 + i // 28, 1 + i % 28, 1 + i // 28, 1 + i % 28) for i in range(64))
    points = []
    for i in range(count):
        second = 5 * 3600 + i
        points.append('<trkpt lon="8.%d" lat="47.%d"><ele>408.2</ele><time>2024-05-%02dT%02d:%02d:%02dZ</time>'
                      '<extensions><speed>2.9</speed><course>81.5</course><hAcc>3.1</hAcc><vAcc>2.0</vAcc>'
                      '</extensions></trkpt>\n' % (500_000 + i % 100_000, 300_000 + i % 100_000, 1 + second // 86_400,
                                                   second // 3600 % 24, second // 60 % 60, second % 60))
    gpx = ('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Cadence"><trk><trkseg>\n'
           + "".join(points) + "</trkseg></trk></gpx>\n")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("apple_health_export/export.xml", XML_HEAD + workouts + "</HealthData>\n")
        archive.writestr("apple_health_export/workout-routes/route.gpx", gpx)


KINDS = {
    "route": (route, "zip", 131_072),
    "sources": (sources, "csv", 1_000_000),
    "types": (types, "csv", 200_000),
    "devices": (devices, "csv", 500_000),
    "values": (values, "csv", 2_000),
    "keys": (keys, "csv", 300_000),
    "reversed": (reversed_rows, "csv", 4_000_000),
    "xml-types": (xml_types, "xml", 200_000),
    "xml-metadata": (xml_metadata, "xml", 1_024),
    "correlations": (correlations, "xml", 300_000),
    "summaries": (summaries, "xml", 1_000_000),
    "clinical": (clinical, "zip", 20_000),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("path")
    parser.add_argument("--count", type=int)
    args = parser.parse_args()
    write, extension, default = KINDS[args.kind]
    count = args.count if args.count is not None else default
    if extension == "zip":
        return write(args.path, count)
    with open(args.path, "w", encoding="utf-8", newline="") as out:
        write(out, count)


if __name__ == "__main__":
    main()
