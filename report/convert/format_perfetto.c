// SPDX-License-Identifier: BSD-2-Clause
/*
 * sct-convert --to perfetto: a Perfetto trace (protos/perfetto/trace/trace.proto: a Trace is
 * a sequence of TracePacket), for ui.perfetto.dev and trace_processor. Every record type goes
 * in, whatever --records says:
 *   - a track per process and thread (TrackDescriptor with a ProcessDescriptor or
 *     ThreadDescriptor), named by the task's name at the time, as the library's attribution
 *     gives it (spec/FORMAT.md 9.2); described again after an exec renames it. A process's
 *     cgroup is one of its process labels, "cgroup=PATH";
 *   - each syscall a slice (TYPE_SLICE_BEGIN at time_ns, TYPE_SLICE_END at time_ns +
 *     duration_ns) named by the syscall, with debug annotations: args (the CSV's args text),
 *     ret, errno (failed calls), cgroup, unfinished (calls in flight at the end);
 *   - fork, exec and exit, and tracepoint samples, as instants on the task's track (a
 *     sample's fields as their JSON text); lost events and warnings as instants on a track
 *     of their own.
 * Protobuf and not Perfetto's JSON: JSON's ts is microseconds in a double, whose 53 bits keep
 * a nanosecond only below 2^43 us (101 days of a monotonic clock), an absolute wall-clock
 * time (1.7e15 us) only to 0.25 us, and whose decimal fraction is rounded on its way back to
 * integer nanoseconds; packet timestamps here are the record's time_ns, exact. Names of events and of debug annotations, and cgroup paths, are
 * interned (InternedData), each sent once on the one packet sequence.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "args_text.h"
#include "cgroup_table.h"
#include "convert.h"
#include "names.h"
#include "outbuf.h"
#include "protobuf.h"
#include "samples.h"
#include "sessions.h"
#include "strtab.h"
#include "tasks.h"
#include "trace_input.h"

/* Field numbers of perfetto.protos messages (protos/perfetto/trace/...). */
enum { TRACE_PACKET = 1 };
enum { PKT_TIMESTAMP = 8, PKT_SEQUENCE_ID = 10, PKT_TRACK_EVENT = 11, PKT_INTERNED = 12,
       PKT_SEQUENCE_FLAGS = 13, PKT_TRACK_DESCRIPTOR = 60 };
enum { SEQ_CLEARED = 1, SEQ_NEEDS_STATE = 2 };
enum { TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT = 5 };
enum { PD_PID = 1, PD_NAME = 6, PD_LABELS = 8 };
enum { THD_PID = 1, THD_TID = 2, THD_NAME = 5 };
enum { TE_ANNOTATION = 4, TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK_UUID = 11 };
enum { TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3 };
enum { DA_NAME_IID = 1, DA_BOOL = 2, DA_UINT = 3, DA_INT = 4, DA_STRING = 6, DA_STRING_IID = 17 };
enum { ID_EVENT_NAMES = 2, ID_ANNOTATION_NAMES = 3, ID_STRING_VALUES = 29 };
enum { INTERNED_IID = 1, INTERNED_NAME = 2 };

#define SEQUENCE_ID 1
#define NOTES_UUID 1 /* the track of losses and warnings; tasks' uuids are 2 and up */
#define OVERLAP_UUID (1ull << 63) /* with a thread's uuid: its calls that overlap others */

/* Debug annotation names: interned as their index + 1, all in the first packet. */
#define ANNOTATIONS(X) X(ARGS, "args") X(RET, "ret") X(ERRNO, "errno") X(CGROUP, "cgroup") \
	X(UNFINISHED, "unfinished") X(CHILD_PID, "child_pid") X(CHILD_TID, "child_tid") \
	X(IS_THREAD, "is_thread") X(FILENAME, "filename") X(COMM, "comm") X(OLD_TID, "old_tid") \
	X(EXIT_CODE, "exit_code") X(SIGNAL, "signal") X(GROUP_DEAD, "group_dead") X(CPU, "cpu") \
	X(FIELDS, "fields") X(COUNT, "count") X(CAUSE, "cause") X(END_NS, "end_ns") X(KIND, "kind") \
	X(TEXT, "text")
#define ANN_ENUM(id, name) ANN_##id,
#define ANN_NAME(id, name) name,
enum annotation { ANNOTATIONS(ANN_ENUM) ANN_NUM };
static const char *const annotation_names[ANN_NUM] = { ANNOTATIONS(ANN_NAME) };

/* What each task's tracks were last described with: task index -> state. */
struct pf_task {
	uint32_t thread_name;  /* strtab id + 1 of the name given; 0 = not described */
	uint32_t tid;          /* the tid given (a thread that exec'd takes its leader's) */
	uint64_t begin, end;   /* the last slice on the thread track */
	bool overlap_track;    /* the track of calls that overlap it is described */
	uint32_t process_name; /* the same for the process track (leaders' entries) */
	uint32_t cgroup;       /* strtab id + 1 of the cgroup label given the process */
};

struct perfetto {
	struct out pkt;        /* the packet being built */
	struct out text;       /* a memory out: args text, sample fields */
	struct pf_task *tasks;
	uint32_t ntasks;
	uint8_t *sent[2];      /* per strtab id: 1 once interned as [0] an event name, [1] a string value */
	uint32_t nsent[2];
	bool started;          /* the first packet (state cleared, annotation names) is out */
	size_t interned;       /* the open InternedData of the packet, 0 if none */
	bool notes_track;
	/* the label of the cgroup last asked for (calls come in runs of one cgroup), by session */
	uint64_t last_serial, last_cg;
	uint32_t last_cg_path, last_label;
	uint32_t lost_name, warning_name, fork_name, exec_name, exit_name;
};

static struct perfetto *pf_state(struct convert *cv)
{
	struct perfetto *pf;

	if (cv->state)
		return cv->state;
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return NULL;
	if (out_open_mem(&pf->pkt, 4096) || out_open_mem(&pf->text, SAMPLE_JSON_MAX)) {
		free(pf->pkt.buf);
		free(pf);
		return NULL;
	}
	pf->lost_name = strtab_intern(cv->c.strs, "lost", 4);
	pf->warning_name = strtab_intern(cv->c.strs, "warning", 7);
	pf->fork_name = strtab_intern(cv->c.strs, "fork", 4);
	pf->exec_name = strtab_intern(cv->c.strs, "exec", 4);
	pf->exit_name = strtab_intern(cv->c.strs, "exit", 4);
	cv->state = pf;
	return pf;
}

static void perfetto_free(struct convert *cv)
{
	struct perfetto *pf = cv->state;

	if (!pf)
		return;
	free(pf->pkt.buf);
	free(pf->text.buf);
	free(pf->tasks);
	free(pf->sent[0]);
	free(pf->sent[1]);
	free(pf);
	cv->state = NULL;
}

/* Grows a per-index array of size bytes per entry to hold index i; -ENOMEM. */
static int pf_grow(void **arr, uint32_t *n, uint32_t i, size_t size)
{
	uint32_t cap = *n ? *n : 256;
	void *tmp;

	if (i < *n)
		return 0;
	while (cap <= i)
		cap *= 2;
	tmp = realloc(*arr, (size_t)cap * size);
	if (!tmp)
		return -ENOMEM;
	memset((char *)tmp + (size_t)*n * size, 0, (size_t)(cap - *n) * size);
	*arr = tmp;
	*n = cap;
	return 0;
}

/* A packet starts: the sequence's fields; the first clears its state and interns the annotation names. */
static void pf_packet(struct perfetto *pf, uint64_t time_ns, bool timed)
{
	struct out *p = &pf->pkt;

	p->len = 0;
	pf->interned = 0;
	if (timed)
		pb_varint(p, PKT_TIMESTAMP, time_ns);
	pb_varint(p, PKT_SEQUENCE_ID, SEQUENCE_ID);
	if (pf->started) {
		pb_varint(p, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_STATE);
		return;
	}
	pf->started = true;
	pb_varint(p, PKT_SEQUENCE_FLAGS, SEQ_CLEARED | SEQ_NEEDS_STATE);
	pf->interned = pb_open(p, PKT_INTERNED);
	for (uint32_t i = 0; i < ANN_NUM; i++) {
		size_t m = pb_open(p, ID_ANNOTATION_NAMES);

		pb_varint(p, INTERNED_IID, i + 1);
		pb_str(p, INTERNED_NAME, annotation_names[i]);
		pb_close(p, m);
	}
}

/* The packet's interned data is complete: its other fields follow. */
static void pf_body(struct perfetto *pf)
{
	if (pf->interned)
		pb_close(&pf->pkt, pf->interned);
	pf->interned = 0;
}

/* The packet is done: it goes out as one Trace.packet. */
static int pf_send(struct convert *cv, struct perfetto *pf)
{
	pf_body(pf);
	if (pf->pkt.err)
		return pf->pkt.err;
	pb_bytes(&cv->o, TRACE_PACKET, pf->pkt.buf, pf->pkt.len);
	return 0;
}

/*
 * A strtab string as interned data of kind (ID_EVENT_NAMES, ID_STRING_VALUES), before the
 * packet's event: its iid (id + 1), sent once. Interned data goes in the packet that first
 * uses it, ahead of the event that refers to it.
 */
static uint64_t pf_intern(struct convert *cv, struct perfetto *pf, uint32_t kind, uint32_t id)
{
	int k = kind == ID_STRING_VALUES;
	struct out *p = &pf->pkt;
	size_t m;

	if (pf_grow((void **)&pf->sent[k], &pf->nsent[k], id, 1)) {
		p->err = -ENOMEM;
		return 0;
	}
	if (pf->sent[k][id])
		return (uint64_t)id + 1;
	pf->sent[k][id] = 1;
	if (!pf->interned)
		pf->interned = pb_open(p, PKT_INTERNED);
	m = pb_open(p, kind);
	pb_varint(p, INTERNED_IID, (uint64_t)id + 1);
	pb_bytes(p, INTERNED_NAME, strtab_get(cv->c.strs, id), strtab_len(cv->c.strs, id));
	pb_close(p, m);
	return (uint64_t)id + 1;
}

static uint64_t pf_thread_uuid(const struct task *t)
{
	return ((uint64_t)t->index + 1) << 1;
}

static uint64_t pf_process_uuid(const struct task *t)
{
	return ((uint64_t)t->process->index + 1) << 1 | 1;
}

static void pf_name(struct convert *cv, struct out *p, uint32_t field, uint32_t id)
{
	if (id)
		pb_bytes(p, field, strtab_get(cv->c.strs, id), strtab_len(cv->c.strs, id));
}

/* The process track of pt, named name and labelled with cgroup (strtab ids; 0: none). */
static int pf_describe_process(struct convert *cv, struct perfetto *pf, struct task *pt, uint32_t name,
			       uint32_t cgroup)
{
	struct out *p = &pf->pkt;
	struct pf_task *st = &pf->tasks[pt->index];
	size_t td, pd, label;

	if (st->process_name == name + 1 && st->cgroup == cgroup + 1)
		return 0;
	st->process_name = name + 1;
	st->cgroup = cgroup + 1;
	pf_packet(pf, 0, false);
	pf_body(pf);
	td = pb_open(p, PKT_TRACK_DESCRIPTOR);
	pb_varint(p, TD_UUID, pf_process_uuid(pt));
	pd = pb_open(p, TD_PROCESS);
	pb_int(p, PD_PID, (int32_t)pt->pid);
	pf_name(cv, p, PD_NAME, name);
	if (cgroup) {
		label = pb_open(p, PD_LABELS);
		out_str(p, "cgroup=");
		out_mem(p, strtab_get(cv->c.strs, cgroup), strtab_len(cv->c.strs, cgroup));
		pb_close(p, label);
	}
	pb_close(p, pd);
	pb_close(p, td);
	return pf_send(cv, pf);
}

static int pf_describe_thread(struct convert *cv, struct perfetto *pf, struct task *t, uint32_t tid,
			      uint32_t name)
{
	struct pf_task *st = &pf->tasks[t->index];
	struct out *p = &pf->pkt;
	size_t td, thd;

	if (st->thread_name == name + 1 && st->tid == tid)
		return 0;
	st->thread_name = name + 1;
	st->tid = tid;
	pf_packet(pf, 0, false);
	pf_body(pf);
	td = pb_open(p, PKT_TRACK_DESCRIPTOR);
	pb_varint(p, TD_UUID, pf_thread_uuid(t));
	thd = pb_open(p, TD_THREAD);
	pb_int(p, THD_PID, (int32_t)t->pid);
	pb_int(p, THD_TID, (int32_t)tid);
	pf_name(cv, p, THD_NAME, name);
	pb_close(p, thd);
	pb_close(p, td);
	return pf_send(cv, pf);
}

/* The label of cgroup id of the live session (its path, or "cgroup:ID"); UINT32_MAX on ENOMEM. */
static uint32_t pf_cgroup_label(struct perfetto *pf, struct input *in, uint64_t id)
{
	struct cgroup *cg = cgroups_get(in->cur->cgroups, in->cur->s.id, id);

	if (!cg)
		return UINT32_MAX;
	if (id != pf->last_cg || in->cur->serial != pf->last_serial || cg->path != pf->last_cg_path) {
		pf->last_cg = id;
		pf->last_serial = in->cur->serial;
		pf->last_cg_path = cg->path;
		pf->last_label = cgroups_label(in->cur->cgroups, cg);
	}
	return pf->last_label;
}

/*
 * The track of the task that tid was at time_ns, described (again) if its tid (a thread that
 * exec'd takes its leader's), its name at name_ns or its process's cgroup changed since.
 * cgroup_id: the record's, else (0) the task's; where neither says, the process keeps the
 * cgroup it was described with. 0 on ENOMEM.
 */
static uint64_t pf_track(struct convert *cv, struct perfetto *pf, struct input *in, uint32_t pid, uint32_t tid,
			 uint64_t time_ns, uint64_t name_ns, uint64_t cgroup_id)
{
	struct task *t = tasks_lookup(in->cur->tasks, in->cur->s.id, pid, tid, time_ns);
	uint32_t max, label;

	if (!t)
		return 0;
	max = t->index > t->process->index ? t->index : t->process->index;
	if (pf_grow((void **)&pf->tasks, &pf->ntasks, max, sizeof(*pf->tasks)))
		return 0;
	cgroup_id = cgroup_id ? cgroup_id : t->cgroup_id;
	label = pf->tasks[t->process->index].cgroup;
	label = label ? label - 1 : 0;
	if (cgroup_id)
		label = pf_cgroup_label(pf, in, cgroup_id);
	if (label == UINT32_MAX)
		return 0;
	if (pf_describe_process(cv, pf, t->process, tasks_comm(in->cur->tasks, t->process, name_ns), label) ||
	    pf_describe_thread(cv, pf, t, tid, tasks_comm(in->cur->tasks, t, name_ns)))
		return 0;
	return pf_thread_uuid(t);
}

static size_t pf_annotation(struct out *p, enum annotation a)
{
	size_t m = pb_open(p, TE_ANNOTATION);

	pb_varint(p, DA_NAME_IID, (uint64_t)a + 1);
	return m;
}

static void pf_ann_int(struct out *p, enum annotation a, int64_t v)
{
	size_t m = pf_annotation(p, a);

	pb_int(p, DA_INT, v);
	pb_close(p, m);
}

static void pf_ann_uint(struct out *p, enum annotation a, uint64_t v)
{
	size_t m = pf_annotation(p, a);

	pb_varint(p, DA_UINT, v);
	pb_close(p, m);
}

static void pf_ann_bool(struct out *p, enum annotation a, bool v)
{
	size_t m = pf_annotation(p, a);

	pb_varint(p, DA_BOOL, v);
	pb_close(p, m);
}

static void pf_ann_bytes(struct out *p, enum annotation a, const void *s, size_t len)
{
	size_t m = pf_annotation(p, a);

	pb_bytes(p, DA_STRING, s, len);
	pb_close(p, m);
}

static void pf_ann_str(struct out *p, enum annotation a, const char *s)
{
	pf_ann_bytes(p, a, s, strlen(s));
}

/* A track event's packet: interned name first, then the event up to its annotations. */
static size_t pf_event(struct convert *cv, struct perfetto *pf, uint64_t time_ns, uint64_t uuid, uint32_t type,
		       uint32_t name)
{
	struct out *p = &pf->pkt;
	uint64_t iid;
	size_t te;

	pf_packet(pf, time_ns, true);
	iid = name != UINT32_MAX ? pf_intern(cv, pf, ID_EVENT_NAMES, name) : 0;
	pf_body(pf);
	te = pb_open(p, PKT_TRACK_EVENT);
	pb_varint(p, TE_TYPE, type);
	pb_varint(p, TE_TRACK_UUID, uuid);
	if (iid)
		pb_varint(p, TE_NAME_IID, iid);
	return te;
}

/* A slice's end; a duration past 2^64 ns (a damaged file) ends at the last time there is. */
static uint64_t pf_end(const struct sct_syscall *sc)
{
	uint64_t end = sc->time_ns + sc->duration_ns;

	return end < sc->time_ns ? UINT64_MAX : end;
}

/*
 * A thread makes one call at a time, so its slices follow one another; a call that overlaps
 * the last one written on its thread track without nesting in it (a hand-made or damaged
 * file) would end the wrong slice: it goes on a track of its own under the thread's.
 */
static uint64_t pf_slice_track(struct convert *cv, struct perfetto *pf, uint64_t uuid, const struct sct_syscall *sc)
{
	struct pf_task *st = &pf->tasks[(uuid >> 1) - 1];
	uint64_t begin = sc->time_ns, end = pf_end(sc);
	struct out *p = &pf->pkt;
	size_t td;

	if (st->end && begin >= st->begin && end <= st->end)
		return uuid; /* nested in the last: it ends first */
	if (!st->end || end <= st->begin || begin >= st->end || (begin <= st->begin && end >= st->end)) {
		st->begin = begin;
		st->end = end;
		return uuid;
	}
	if (!st->overlap_track) {
		st->overlap_track = true;
		pf_packet(pf, 0, false);
		pf_body(pf);
		td = pb_open(p, PKT_TRACK_DESCRIPTOR);
		pb_varint(p, TD_UUID, uuid | OVERLAP_UUID);
		pb_varint(p, TD_PARENT, uuid);
		pb_str(p, TD_NAME, "calls overlapping others");
		pb_close(p, td);
		if (pf_send(cv, pf))
			return 0;
	}
	return uuid | OVERLAP_UUID;
}

static int pf_syscall(struct convert *cv, struct perfetto *pf, struct input *in, const struct sct_syscall *sc)
{
	uint64_t uuid = pf_track(cv, pf, in, sc->pid, sc->tid, sc->time_ns, sct_syscall_name_ns(sc),
				 sc->cgroup_id);
	uint32_t name = input_syscall_name(&cv->c, in->cur, sc->nr, sc->abi);
	uint32_t cg = pf_cgroup_label(pf, in, sc->cgroup_id);
	struct out *p = &pf->pkt;
	uint64_t cg_iid;
	size_t te, m;
	char tmp[16];

	if (uuid)
		uuid = pf_slice_track(cv, pf, uuid, sc);
	if (!uuid || cg == UINT32_MAX)
		return -ENOMEM;
	/* the cgroup's path is interned before the event opens, as interned data must be */
	pf_packet(pf, sc->time_ns, true);
	cg_iid = pf_intern(cv, pf, ID_STRING_VALUES, cg);
	pf_intern(cv, pf, ID_EVENT_NAMES, name);
	pf_body(pf);
	te = pb_open(p, PKT_TRACK_EVENT);
	pb_varint(p, TE_TYPE, TYPE_SLICE_BEGIN);
	pb_varint(p, TE_TRACK_UUID, uuid);
	pb_varint(p, TE_NAME_IID, (uint64_t)name + 1);
	if (in->cur->session && sct_session_has_args(in->cur->session)) {
		pf->text.len = 0;
		args_out(&pf->text, in->cur->session, sc, false);
		if (pf->text.err)
			return pf->text.err;
		if (pf->text.len) /* a call without arguments (getpid) has none to show */
			pf_ann_bytes(p, ANN_ARGS, pf->text.buf, pf->text.len);
	}
	if (sc->unfinished) {
		pf_ann_bool(p, ANN_UNFINISHED, true);
	} else {
		pf_ann_int(p, ANN_RET, sc->ret);
		if (names_is_error(sc->ret))
			pf_ann_str(p, ANN_ERRNO, names_errno((int)-sc->ret, tmp));
	}
	m = pf_annotation(p, ANN_CGROUP);
	pb_varint(p, DA_STRING_IID, cg_iid);
	pb_close(p, m);
	pb_close(p, te);
	if (pf_send(cv, pf))
		return pf->pkt.err;
	te = pf_event(cv, pf, pf_end(sc), uuid, TYPE_SLICE_END, UINT32_MAX);
	pb_close(p, te);
	return pf_send(cv, pf);
}

static int pf_fork(struct convert *cv, struct perfetto *pf, struct input *in, const struct sct_fork *f)
{
	uint64_t uuid = pf_track(cv, pf, in, f->parent_pid, f->parent_tid, f->time_ns, f->time_ns, 0);
	struct out *p = &pf->pkt;
	size_t te;

	if (!uuid)
		return -ENOMEM;
	te = pf_event(cv, pf, f->time_ns, uuid, TYPE_INSTANT, pf->fork_name);
	pf_ann_uint(p, ANN_CHILD_PID, f->child_pid);
	pf_ann_uint(p, ANN_CHILD_TID, f->child_tid);
	pf_ann_bool(p, ANN_IS_THREAD, f->is_thread);
	pb_close(p, te);
	return pf_send(cv, pf);
}

static int pf_exec(struct convert *cv, struct perfetto *pf, struct input *in, const struct sct_exec *e)
{
	uint64_t uuid = pf_track(cv, pf, in, e->pid, e->tid, e->time_ns, e->time_ns, 0);
	struct out *p = &pf->pkt;
	size_t te;

	if (!uuid)
		return -ENOMEM;
	te = pf_event(cv, pf, e->time_ns, uuid, TYPE_INSTANT, pf->exec_name);
	pf_ann_bytes(p, ANN_FILENAME, e->filename.ptr, e->filename.len);
	pf_ann_bytes(p, ANN_COMM, e->comm.ptr, e->comm.len);
	pf_ann_uint(p, ANN_OLD_TID, e->old_tid);
	pb_close(p, te);
	return pf_send(cv, pf);
}

static int pf_exit(struct convert *cv, struct perfetto *pf, struct input *in, const struct sct_exit *e)
{
	uint64_t uuid = pf_track(cv, pf, in, e->pid, e->tid, e->time_ns, e->time_ns, 0);
	struct out *p = &pf->pkt;
	char tmp[16];
	size_t te;

	if (!uuid)
		return -ENOMEM;
	te = pf_event(cv, pf, e->time_ns, uuid, TYPE_INSTANT, pf->exit_name);
	pf_ann_int(p, ANN_EXIT_CODE, e->exit_code);
	if (e->signal)
		pf_ann_str(p, ANN_SIGNAL, names_signal((int)e->signal, tmp));
	pf_ann_bool(p, ANN_GROUP_DEAD, e->group_dead);
	pb_close(p, te);
	return pf_send(cv, pf);
}

static int pf_sample(struct convert *cv, struct perfetto *pf, struct input *in, const struct sct_sample *sm)
{
	const struct sct_event_desc *ev = input_event(in->cur, sm);
	uint64_t uuid = pf_track(cv, pf, in, sm->pid, sm->tid, sm->time_ns, sm->time_ns, sm->cgroup_id);
	struct out *p = &pf->pkt;
	size_t te;

	if (!uuid)
		return -ENOMEM;
	te = pf_event(cv, pf, sm->time_ns, uuid, TYPE_INSTANT, input_event_name(&cv->c, in->cur, sm));
	pf_ann_uint(p, ANN_CPU, sm->cpu);
	if (ev) {
		pf->text.len = 0;
		sample_json_fields(&pf->text, ev, sm->payload);
		if (pf->text.err)
			return pf->text.err;
		pf_ann_bytes(p, ANN_FIELDS, pf->text.buf, pf->text.len);
	}
	pb_close(p, te);
	return pf_send(cv, pf);
}

/* Losses and warnings: instants on a track of their own, described before the first. */
static int pf_note(struct convert *cv, struct perfetto *pf, const struct sct_record *rec)
{
	static const char track_name[] = "sct: lost events and warnings";
	struct out *p = &pf->pkt;
	size_t te;

	if (!pf->notes_track) {
		pf->notes_track = true;
		pf_packet(pf, 0, false);
		pf_body(pf);
		te = pb_open(p, PKT_TRACK_DESCRIPTOR);
		pb_varint(p, TD_UUID, NOTES_UUID);
		pb_str(p, TD_NAME, track_name);
		pb_close(p, te);
		if (pf_send(cv, pf))
			return pf->pkt.err;
	}
	if (rec->type == SCT_REC_LOST) {
		te = pf_event(cv, pf, rec->lost.time_ns, NOTES_UUID, TYPE_INSTANT, pf->lost_name);
		pf_ann_uint(p, ANN_COUNT, rec->lost.count);
		pf_ann_uint(p, ANN_CAUSE, rec->lost.cause);
		pf_ann_uint(p, ANN_END_NS, rec->lost.end_ns);
	} else {
		te = pf_event(cv, pf, rec->warning.time_ns, NOTES_UUID, TYPE_INSTANT, pf->warning_name);
		pf_ann_uint(p, ANN_COUNT, rec->warning.count);
		pf_ann_uint(p, ANN_KIND, rec->warning.kind);
		pf_ann_bytes(p, ANN_TEXT, rec->warning.text.ptr, rec->warning.text.len);
	}
	pb_close(p, te);
	return pf_send(cv, pf);
}

static int perfetto_record(struct convert *cv, struct input *in, const struct sct_record *rec)
{
	struct perfetto *pf = pf_state(cv);

	if (!pf)
		return -ENOMEM;
	switch (rec->type) {
	case SCT_REC_SYSCALL:
		return pf_syscall(cv, pf, in, &rec->syscall);
	case SCT_REC_FORK:
		return pf_fork(cv, pf, in, &rec->fork);
	case SCT_REC_EXEC:
		return pf_exec(cv, pf, in, &rec->exec);
	case SCT_REC_EXIT:
		return pf_exit(cv, pf, in, &rec->exit);
	case SCT_REC_SAMPLE:
		/* type 9 of a 1.0 session is a type its HEADER describes: not a sample */
		return input_sample_session(in->cur) ? pf_sample(cv, pf, in, &rec->sample) : 0;
	case SCT_REC_LOST:
	case SCT_REC_WARNING:
		return pf_note(cv, pf, rec);
	default: /* TASK and CGROUP records name tasks and cgroups: they are in the descriptors */
		return 0;
	}
}

const struct convert_format format_perfetto = {
	.name = "perfetto",
	.record = perfetto_record,
	.binary = true,
	.free = perfetto_free,
};
