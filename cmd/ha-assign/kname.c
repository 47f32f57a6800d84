/*
 * kname.c: the Kubernetes rules for the names ha-assign writes.
 *
 * Label values are at most 63 characters of [A-Za-z0-9-_.], beginning
 * and ending with an alphanumeric (or empty).  Label keys are an
 * optional DNS subdomain prefix and "/", then a name following the
 * value rules but not empty.  Service names are DNS-1035 labels: at
 * most 63 characters of [a-z0-9-], a letter first, no '-' last.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "idmap.h"
#include "world.h"
#include "xalloc.h"

#define NAME_MAX_LEN 63
#define PREFIX "replicate-"
/* The hashed form: PREFIX, up to KEEP characters of the pod, "-", hash. */
#define HASH_HEX 10
#define KEEP (NAME_MAX_LEN - (sizeof PREFIX - 1) - 1 - HASH_HEX)

static int
is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

static int
valid_name_part(const char *s, size_t n)
{
	size_t i;

	if (n > NAME_MAX_LEN)
		return 0;
	if (n == 0)
		return 1;
	if (!is_alnum(s[0]) || !is_alnum(s[n - 1]))
		return 0;
	for (i = 0; i < n; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return 0;
	return 1;
}

int
valid_label_value(const char *s)
{
	return valid_name_part(s, strlen(s));
}

/* valid_subdomain: DNS-1123 subdomain, at most 253 characters. */
static int
valid_subdomain(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 253)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];
		int an = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');

		if (!an && c != '-' && c != '.')
			return 0;
		if (!an && (i == 0 || i == n - 1))
			return 0;
	}
	return 1;
}

int
valid_label_key(const char *s)
{
	const char *slash = strchr(s, '/');
	const char *name = slash ? slash + 1 : s;

	if (slash && !valid_subdomain(s, (size_t)(slash - s)))
		return 0;
	return *name != '\0' && valid_name_part(name, strlen(name));
}

int
valid_service_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > NAME_MAX_LEN || !(s[0] >= 'a' && s[0] <= 'z') ||
	    s[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

/*
 * replicate_name: the paper's "replicate-<active pod>" (4.2) when it is
 * a valid Service name; otherwise "replicate-" + the pod name's first
 * KEEP characters, lower-cased, with anything but [a-z0-9-] turned into
 * '-' and '-' trimmed from the end, + "-" + the low 40 bits of the
 * FNV-1a hash of the whole name in hex.  The real name goes into the
 * Service's upkit/active-pod annotation.
 */
char *
replicate_name(const char *pod)
{
	size_t n = strlen(pod), i, keep = n < KEEP ? n : KEEP;
	char *s = xmalloc(sizeof PREFIX + n + HASH_HEX + 2);

	memcpy(s, PREFIX, sizeof PREFIX - 1);
	memcpy(s + sizeof PREFIX - 1, pod, n + 1);
	if (valid_service_name(s))
		return s;
	for (i = 0; i < keep; i++) {
		char c = pod[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = '-';
		s[sizeof PREFIX - 1 + i] = c;
	}
	while (keep > 0 && s[sizeof PREFIX - 1 + keep - 1] == '-')
		keep--;
	snprintf(s + sizeof PREFIX - 1 + keep, HASH_HEX + 2, "-%010llx",
	    (unsigned long long)(idmap_hash(pod) & 0xffffffffffu));
	return s;
}
