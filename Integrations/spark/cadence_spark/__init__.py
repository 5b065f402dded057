# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
"""HealthKit-exact per-user statistics on Apache Spark.

Spark partitions the users and writes Parquet; each partition is piped through one ``cadence``
process, which computes the statistics the way HealthKit does (proration, source merging,
DST-true calendar intervals).
"""

from .statistics import (
    Query,
    statistics_from_samples,
    statistics_from_stores,
    write_parquet,
)

__all__ = ["Query", "statistics_from_samples", "statistics_from_stores", "write_parquet"]
