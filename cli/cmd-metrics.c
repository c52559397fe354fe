// SPDX-License-Identifier: MIT
/*
 * cmd-metrics.c - "show metrics": a controller's state as Prometheus
 * samples, read through the public API only, so every kind of controller
 * (soft, nvme, mock, and the ones to come) is covered by the same code.
 *
 * The handler fills the result tree with one row per sample ({"Metric",
 * "Labels", "Value"}); render-metrics.c prints the exposition from it, and
 * J prints the same rows as JSON. The families, their types and help are
 * metric_families[] below, the one list both read.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The states' codes, as enum rcl_pd_state and enum rcl_vd_state number them. */
#define DRIVE_STATES "0 UGood, 1 UBad, 2 Onln, 3 Offln, 4 Msng, 5 GHS, 6 DHS, 7 Rbld, 8 JBOD"
#define TASK_STATES  "1 running, 2 paused, 3 waiting for force, 4 halted, 5 failed"

const struct metric_family metric_families[METRIC_COUNT] = {
    [METRIC_BUILD_INFO] = {"raidcli_build_info", "gauge", "raidcli's version; always 1"},
    [METRIC_SCRAPE_SUCCESS] = {"raidcli_scrape_success", "gauge",
                               "1 if the controller could be read, 0 if not"},
    [METRIC_SCRAPE_DURATION] = {"raidcli_scrape_duration_seconds", "gauge",
                                "how long reading the controller took"},
    [METRIC_SCRAPE_ERROR] = {"raidcli_scrape_error", "gauge",
                             "why the controller could not be read (reason: raidcli's "
                             "status name, code: its exit status); always 1"},
    [METRIC_CTRL_INFO] = {"raidcli_controller_info", "gauge",
                          "what the controller says about itself; always 1"},
    [METRIC_CTRL_HEALTHY] = {"raidcli_controller_healthy", "gauge",
                             "0 while a virtual drive is not optimal (show's Hlth NdAtn), else 1"},
    [METRIC_CTRL_TEMPERATURE] = {"raidcli_controller_temperature_celsius", "gauge",
                                 "the temperature of the controller's RAID-on-chip processor, "
                                 "where it reports one"},
    [METRIC_CTRL_BACKUP_HEALTHY] = {"raidcli_controller_cache_backup_healthy", "gauge",
                                    "1 if the battery or CacheVault keeping the cache is "
                                    "optimal or learning, where the controller reports its "
                                    "state"},
    [METRIC_CTRL_TASK_STATE] = {"raidcli_controller_task_state", "gauge",
                                "a controller task under way: " TASK_STATES},
    [METRIC_CTRL_TASK_PROGRESS] = {"raidcli_controller_task_progress_ratio", "gauge",
                                   "how much of a controller task under way is done, 0 to 1"},
    [METRIC_CTRL_TASK_REMAINING] = {"raidcli_controller_task_remaining_seconds", "gauge",
                                    "estimated time left of a running controller task"},
    [METRIC_VD_INFO] = {"raidcli_vd_info", "gauge", "a virtual drive's identity; always 1"},
    [METRIC_VD_STATE] =
        {"raidcli_vd_state", "gauge",
         "0 Optl, 1 Pdgd (partially degraded), 2 Dgrd (degraded), 3 OfLn (offline)"},
    [METRIC_VD_HEALTHY] = {"raidcli_vd_healthy", "gauge", "1 if the virtual drive is optimal"},
    [METRIC_VD_SIZE] = {"raidcli_vd_size_bytes", "gauge", "the capacity the host sees"},
    [METRIC_VD_TASK_STATE] = {"raidcli_vd_task_state", "gauge",
                              "a virtual drive task under way: " TASK_STATES},
    [METRIC_VD_TASK_PROGRESS] = {"raidcli_vd_task_progress_ratio", "gauge",
                                 "how much of a virtual drive task under way is done, 0 to 1"},
    [METRIC_VD_TASK_REMAINING] = {"raidcli_vd_task_remaining_seconds", "gauge",
                                  "estimated time left of a running virtual drive task"},
    [METRIC_DRIVE_INFO] = {"raidcli_drive_info", "gauge", "a drive's identity; always 1"},
    [METRIC_DRIVE_STATE] = {"raidcli_drive_state", "gauge", DRIVE_STATES},
    [METRIC_DRIVE_HEALTHY] = {"raidcli_drive_healthy", "gauge",
                              "0 if the drive failed (UBad), is offline or missing, or its "
                              "SMART status trips, else 1"},
    [METRIC_DRIVE_SIZE] = {"raidcli_drive_size_bytes", "gauge", "the drive's raw capacity"},
    [METRIC_DRIVE_TEMPERATURE] = {"raidcli_drive_temperature_celsius", "gauge",
                                  "the drive's temperature, where it reports one"},
    [METRIC_DRIVE_MEDIA_ERRORS] = {"raidcli_drive_media_errors_total", "counter",
                                   "media errors the drive counted, where it reports health"},
    [METRIC_DRIVE_OTHER_ERRORS] = {"raidcli_drive_other_errors_total", "counter",
                                   "other errors the drive counted, where it reports health"},
    [METRIC_DRIVE_PREDICTIVE_FAILURES] = {"raidcli_drive_predictive_failures_total", "counter",
                                          "predictive failures the drive counted, where it "
                                          "reports health"},
    [METRIC_DRIVE_SMART_ALERT] = {"raidcli_drive_smart_alert", "gauge",
                                  "1 if the drive's SMART status trips (NVMe: a critical "
                                  "warning), where it reports health"},
    [METRIC_DRIVE_TASK_STATE] = {"raidcli_drive_task_state", "gauge",
                                 "a drive task under way: " TASK_STATES},
    [METRIC_DRIVE_TASK_PROGRESS] = {"raidcli_drive_task_progress_ratio", "gauge",
                                    "how much of a drive task under way is done, 0 to 1"},
    [METRIC_DRIVE_TASK_REMAINING] = {"raidcli_drive_task_remaining_seconds", "gauge",
                                     "estimated time left of a running drive task"},
};

/* What a task's samples are of: the controller, a VD or a drive (the families' order). */
enum task_target {
	TARGET_CTRL,
	TARGET_VD,
	TARGET_DRIVE,
};

/*
 * The tasks, with their "task" label (the word its commands use) and what
 * they run on. Self-tests and firmware updates are left out: a self-test
 * is a drive's own check, not a change of its state, and a firmware update
 * is a command that ends before it answers.
 */
static const struct {
	enum rcl_task_kind kind;
	const char *label;
	enum task_target target;
} tasks[] = {
    {RCL_TASK_PATROL_READ, "patrolread", TARGET_CTRL},
    {RCL_TASK_CC, "cc", TARGET_VD},
    {RCL_TASK_INIT, "init", TARGET_VD},
    {RCL_TASK_BGI, "bgi", TARGET_VD},
    {RCL_TASK_MIGRATE, "migrate", TARGET_VD},
    {RCL_TASK_VD_ERASE, "erase", TARGET_VD},
    {RCL_TASK_REBUILD, "rebuild", TARGET_DRIVE},
    {RCL_TASK_ERASE, "erase", TARGET_DRIVE},
    {RCL_TASK_DRIVE_INIT, "init", TARGET_DRIVE},
};

/*
 * The labels that name one object: controller="0", then vd="1" or
 * enclosure="252",slot="3". Every sample of the object starts with them.
 */
struct target {
	const char *keys[3];
	char values[3][16];
	size_t count;
};

static void target_add(struct target *t, const char *key, unsigned value)
{
	t->keys[t->count] = key;
	snprintf(t->values[t->count], sizeof(t->values[0]), "%u", value);
	t->count++;
}

/*
 * A sample row of family @id for @t in @list; *@labels: its "Labels", for
 * the caller to add more to before it sets "Value".
 */
static struct rcl_node *add_sample(struct rcl_node *list, enum metric_id id, const struct target *t,
                                   struct rcl_node **labels)
{
	struct rcl_node *row = rcl_node_add_object(list, NULL);

	rcl_node_add_str(row, "Metric", metric_families[id].name);
	*labels = rcl_node_add_object(row, "Labels");
	for (size_t i = 0; i < t->count; i++)
		rcl_node_add_str(*labels, t->keys[i], t->values[i]);
	return row;
}

static void add_value(struct rcl_node *list, enum metric_id id, const struct target *t,
                      long long value)
{
	struct rcl_node *labels;

	rcl_node_add_int(add_sample(list, id, t, &labels), "Value", value);
}

/*
 * The controller's identity, with the host it is reached at (a BMC's,
 * @host "" for a local controller) as a "host" label, so a fleet's
 * samples join to their hosts on "controller".
 */
static void add_ctrl_info(struct rcl_node *list, const struct rcl_ctrl *ctrl, const char *host,
                          const struct target *t)
{
	const struct rcl_ctrl_info *info = rcl_ctrl_info(ctrl);
	struct rcl_node *labels;
	struct rcl_node *row = add_sample(list, METRIC_CTRL_INFO, t, &labels);

	if (*host)
		rcl_node_add_str(labels, "host", host);
	rcl_node_add_str(labels, "kind", rcl_ctrl_caps(ctrl)->kind);
	rcl_node_add_str(labels, "model", info->model);
	rcl_node_add_str(labels, "serial", info->serial);
	rcl_node_add_str(labels, "firmware", info->firmware);
	rcl_node_add_int(row, "Value", 1);
}

/* A sample of task family @id for @t, labelled with the task's word. */
static struct rcl_node *add_task_sample(struct rcl_node *list, enum metric_id id,
                                        const struct target *t, const char *task)
{
	struct rcl_node *labels;
	struct rcl_node *row = add_sample(list, id, t, &labels);

	rcl_node_add_str(labels, "task", task);
	return row;
}

/*
 * The samples of task @i on @req's target, when one is under way: its
 * state, its progress where it tells one, its time left while it runs.
 * A progress the controller cannot tell (QEMU's card writes no LD_PROGRESS
 * reply) gives no task samples, as in show all, not a failed scrape of
 * everything else.
 */
static void add_task(struct rcl_node *list, const struct rcl_ctrl *ctrl, size_t i,
                     struct rcl_task_request *req, const struct target *t)
{
	/* Each target's three task families follow one another in enum metric_id. */
	enum metric_id base = METRIC_CTRL_TASK_STATE + 3 * tasks[i].target;
	struct rcl_task_progress p;

	req->kind = tasks[i].kind;
	if (rcl_ctrl_task_progress(ctrl, req, &p, NULL) || p.state == RCL_TASK_STATE_STOPPED)
		return;
	rcl_node_add_int(add_task_sample(list, base, t, tasks[i].label), "Value", p.state);
	if (p.percent >= 0)
		rcl_node_add_strf(add_task_sample(list, base + 1, t, tasks[i].label), "Value",
		                  "%.2f", p.percent / 100.0);
	if (p.remaining >= 0)
		rcl_node_add_int(add_task_sample(list, base + 2, t, tasks[i].label), "Value",
		                 (long long)(p.remaining + 0.5));
}

/* The samples of every task @caps runs on targets of kind @target. */
static void add_tasks(struct rcl_node *list, const struct rcl_ctrl *ctrl, enum task_target target,
                      struct rcl_task_request *req, const struct target *t)
{
	const struct rcl_caps *caps = rcl_ctrl_caps(ctrl);

	for (size_t i = 0; i < sizeof(tasks) / sizeof(tasks[0]); i++)
		if (tasks[i].target == target && (caps->tasks & (1u << tasks[i].kind)))
			add_task(list, ctrl, i, req, t);
}

static void add_vd(struct rcl_node *list, const struct rcl_ctrl *ctrl, const struct rcl_vd *vd)
{
	struct rcl_task_request req = {.vd = vd->id};
	struct target t = {0};
	struct rcl_node *labels, *row;

	target_add(&t, "controller", rcl_ctrl_id(ctrl));
	target_add(&t, "vd", vd->id);
	row = add_sample(list, METRIC_VD_INFO, &t, &labels);
	rcl_node_add_strf(labels, "dg", "%u", vd->dg);
	rcl_node_add_str(labels, "name", vd->name);
	rcl_node_add_str(labels, "raid", rcl_raid_level_name(vd->level));
	rcl_node_add_int(row, "Value", 1);
	add_value(list, METRIC_VD_STATE, &t, vd->state);
	add_value(list, METRIC_VD_HEALTHY, &t, vd->state == RCL_VD_OPTIMAL);
	add_value(list, METRIC_VD_SIZE, &t, (long long)vd->bytes);
	add_tasks(list, ctrl, TARGET_VD, &req, &t);
}

/*
 * Whether @drive reports its health: its kind reads drives' health logs,
 * or the drive told something (a temperature, an error). An image file
 * tells nothing, and its zeroes would read as a clean bill of health.
 */
static bool reports_health(const struct rcl_caps *caps, const struct rcl_drive *d)
{
	return (caps->parts & (1u << RCL_PART_HEALTH)) || d->temperature_c || d->media_errors ||
	       d->other_errors || d->predictive_failures || d->smart_alert;
}

static void add_drive_health(struct rcl_node *list, const struct rcl_caps *caps,
                             const struct rcl_drive *d, const struct target *t)
{
	if (d->temperature_c)
		add_value(list, METRIC_DRIVE_TEMPERATURE, t, d->temperature_c);
	if (!reports_health(caps, d))
		return;
	add_value(list, METRIC_DRIVE_MEDIA_ERRORS, t, d->media_errors);
	add_value(list, METRIC_DRIVE_OTHER_ERRORS, t, d->other_errors);
	add_value(list, METRIC_DRIVE_PREDICTIVE_FAILURES, t, d->predictive_failures);
	add_value(list, METRIC_DRIVE_SMART_ALERT, t, d->smart_alert);
}

static bool drive_healthy(const struct rcl_drive *d)
{
	return d->state != RCL_PD_UBAD && d->state != RCL_PD_OFFLINE &&
	       d->state != RCL_PD_MISSING && d->present && !d->smart_alert;
}

static void add_drive(struct rcl_node *list, const struct rcl_ctrl *ctrl, const struct rcl_drive *d)
{
	struct rcl_task_request req = {.drive = {d->enclosure, d->slot}};
	struct target t = {0};
	struct rcl_node *labels, *row;

	target_add(&t, "controller", rcl_ctrl_id(ctrl));
	target_add(&t, "enclosure", d->enclosure);
	target_add(&t, "slot", d->slot);
	row = add_sample(list, METRIC_DRIVE_INFO, &t, &labels);
	rcl_node_add_str(labels, "model", d->model);
	rcl_node_add_str(labels, "serial", d->serial);
	rcl_node_add_str(labels, "firmware", d->firmware);
	rcl_node_add_str(labels, "interface", d->interface);
	rcl_node_add_str(labels, "medium", d->medium);
	rcl_node_add_int(row, "Value", 1);
	add_value(list, METRIC_DRIVE_STATE, &t, d->state);
	add_value(list, METRIC_DRIVE_HEALTHY, &t, drive_healthy(d));
	add_value(list, METRIC_DRIVE_SIZE, &t, (long long)d->raw_bytes);
	add_drive_health(list, rcl_ctrl_caps(ctrl), d, &t);
	/* A drive that is gone has no task to ask about. */
	if (d->present)
		add_tasks(list, ctrl, TARGET_DRIVE, &req, &t);
}

/* What a card reports of its processor's temperature and its cache backup's state. */
static void add_ctrl_sensors(struct rcl_node *list, const struct rcl_ctrl_info *info,
                             const struct target *t)
{
	const char *state = info->backup.state;

	if (info->roc_temperature_c)
		add_value(list, METRIC_CTRL_TEMPERATURE, t, info->roc_temperature_c);
	if (*state)
		add_value(list, METRIC_CTRL_BACKUP_HEALTHY, t,
		          !strcmp(state, "Optimal") || !strcmp(state, "Learning"));
}

enum rcl_status cmd_ctrl_show_metrics(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_node *list = rcl_node_add_array(c->res->data, "Metrics");
	struct rcl_task_request req = {0};
	struct target t = {0};

	(void)err; /* what a controller cannot tell is left out, as in show all */
	target_add(&t, "controller", rcl_ctrl_id(c->ctrl));
	add_ctrl_info(list, c->ctrl, c->res->host, &t);
	add_value(list, METRIC_CTRL_HEALTHY, &t, !vds_not_optimal(c->ctrl));
	add_ctrl_sensors(list, rcl_ctrl_info(c->ctrl), &t);
	add_tasks(list, c->ctrl, TARGET_CTRL, &req, &t);
	for (size_t i = 0; i < rcl_ctrl_vd_count(c->ctrl); i++)
		add_vd(list, c->ctrl, rcl_ctrl_vd(c->ctrl, i));
	for (size_t i = 0; i < rcl_ctrl_drive_count(c->ctrl); i++)
		add_drive(list, c->ctrl, rcl_ctrl_drive(c->ctrl, i));
	return RCL_OK;
}
