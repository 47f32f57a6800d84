/*
 * summary_table.h: a summary's measures as a Markdown table row.
 */
#ifndef UPKIT_SUMMARY_TABLE_H
#define UPKIT_SUMMARY_TABLE_H

#include <stdio.h>
#include <jansson.h>

/*
 * summary_table: the row of sum (upkit-sim(1), --summary: method, total
 * duration, violations, impacted VMs, violation time, penalty, outages)
 * on fp, after the table's header if asked.
 */
void summary_table(FILE *fp, const json_t *sum, int header);

#endif
