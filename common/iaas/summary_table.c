/*
 * summary_table.c: the section V measures of a summary (upkit-sim
 * --summary) as a row of Markdown, the form of seed 000's Tables II and
 * III; upkit-sim --table and upgrade-loop's summary.txt print it.
 */
#include "summary_table.h"

static double
num(const json_t *sum, const char *key, const char *sub)
{
	const json_t *v = json_object_get(sum, key);

	if (sub != NULL)
		v = json_object_get(v, sub);
	return (double)json_integer_value(v);
}

void
summary_table(FILE *fp, const json_t *sum, int header)
{
	if (header)
		fputs("| Method | Total duration (s) | Violations per tenant, "
		    "min | max | Impacted VMs per violation, min | max | "
		    "Total violation per tenant (s) | Penalty per tenant | "
		    "Application outage per tenant (s) | Outage per VM (s) |\n"
		    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", fp);
	fprintf(fp, "| %s | %.2f | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f q "
	    "| %.2f | %.2f |\n", json_string_value(json_object_get(sum,
	    "method")), num(sum, "duration_ms", NULL) / 1000,
	    num(sum, "violations_per_tenant", "min"),
	    num(sum, "violations_per_tenant", "max"),
	    num(sum, "vms_per_violation", "min"),
	    num(sum, "vms_per_violation", "max"),
	    num(sum, "violation_ms_per_tenant", NULL) / 1000,
	    num(sum, "penalty_ms_per_tenant", NULL) / 1000,
	    num(sum, "app_outage_ms_per_tenant", NULL) / 1000,
	    num(sum, "outage_ms_per_vm", NULL) / 1000);
}

