/*
 * yamlw.c: YAML output through libyaml's emitter.  The emitter does all
 * quoting and escaping; input text is always double-quoted (control
 * characters become escapes) and, where Ansible would template it,
 * tagged !unsafe.
 */
#include <string.h>

#include "ap.h"

static void
emit(struct yamlw *w, yaml_event_t *ev, int made)
{
	if (!made || w->failed) {
		if (made)
			yaml_event_delete(ev);
		w->failed = 1;
		return;
	}
	if (!yaml_emitter_emit(&w->em, ev))
		w->failed = 1;
}

void
yw_open(struct yamlw *w, FILE *fp)
{
	yaml_event_t ev;

	w->failed = !yaml_emitter_initialize(&w->em);
	if (w->failed)
		return;
	yaml_emitter_set_output_file(&w->em, fp);
	yaml_emitter_set_width(&w->em, -1);	/* never fold long strings */
	yaml_emitter_set_indent(&w->em, 2);
	emit(w, &ev, yaml_stream_start_event_initialize(&ev,
	    YAML_UTF8_ENCODING));
	emit(w, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL,
	    NULL, 0));
}

int
yw_close(struct yamlw *w)
{
	yaml_event_t ev;

	emit(w, &ev, yaml_document_end_event_initialize(&ev, 1));
	emit(w, &ev, yaml_stream_end_event_initialize(&ev));
	if (!w->failed && !yaml_emitter_flush(&w->em))
		w->failed = 1;
	yaml_emitter_delete(&w->em);
	return w->failed ? -1 : 0;
}

void
yw_map(struct yamlw *w, int flow)
{
	yaml_event_t ev;

	emit(w, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE));
}

void
yw_seq(struct yamlw *w, int flow)
{
	yaml_event_t ev;

	emit(w, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE));
}

void
yw_end_map(struct yamlw *w)
{
	yaml_event_t ev;

	emit(w, &ev, yaml_mapping_end_event_initialize(&ev));
}

void
yw_end_seq(struct yamlw *w)
{
	yaml_event_t ev;

	emit(w, &ev, yaml_sequence_end_event_initialize(&ev));
}

static void
scalar(struct yamlw *w, const char *tag, const char *s, yaml_scalar_style_t st)
{
	yaml_event_t ev;
	int plain = tag == NULL && st == YAML_PLAIN_SCALAR_STYLE;

	emit(w, &ev, yaml_scalar_event_initialize(&ev, NULL,
	    (yaml_char_t *)tag, (yaml_char_t *)s, (int)strlen(s), plain,
	    tag == NULL, st));
}

void
yw_plain(struct yamlw *w, const char *s)
{
	scalar(w, NULL, s, YAML_PLAIN_SCALAR_STYLE);
}

void
yw_long(struct yamlw *w, long n)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%ld", n);
	yw_plain(w, buf);
}

void
yw_unsafe(struct yamlw *w, const char *s)
{
	scalar(w, "!unsafe", s, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

void
yw_quoted(struct yamlw *w, const char *s)
{
	scalar(w, NULL, s, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}
