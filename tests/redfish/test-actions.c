// SPDX-License-Identifier: MIT
/*
 * test-actions.c - raidcli's requests as Redfish changes (lib/redfish/
 * volume-action.c, drive-action.c, operation.c) against service.py in
 * both vendor styles: creates answered 201, 204 or 202 with a task,
 * deletes, policy PATCHes with If-Match (a stale ETag refused with 412),
 * locate by IndicatorLED or LocationIndicatorActive, SecureErase and
 * Initialize with their Operations[] progress, hot spares; every refusal
 * in the service's own words and nothing changed after it; answers of the
 * wrong shape; reading both Storages of a BMC under failing allocations.
 */
#include <stdio.h>
#include <string.h>

#include "redfish/drive-action.h"
#include "redfish/json.h"
#include "redfish/operation.h"
#include "redfish/redfish.h"
#include "redfish/volume-action.h"
#include "svc.h"
#include "unit.h"

static struct svc idrac, modern;

/* idrac: a PERC with VD0 (bays 0-1), VD1 (2-4, rebuilding 4), spare bay 5, free bays 6-14 */
#define PERC   "/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1"
#define BAY(n) PERC "/Drives/Disk.Bay." #n ":Enclosure.Internal.0-1:RAID.Integrated.1-1"
#define VD(n)  PERC "/Volumes/Disk.Virtual." #n ":RAID.Integrated.1-1"
/* modern: volume 1 (drives 1-2, CheckConsistency 30%), 2 (3-6 rebuilding), spare 6, free 7-15 */
#define STORAGE1   "/redfish/v1/Systems/1/Storage/1"
#define STORAGE2   "/redfish/v1/Systems/1/Storage/2"
#define DRIVE(n)   "/redfish/v1/Chassis/1/Drives/" #n
#define VOLUME(n)  STORAGE1 "/Volumes/" #n
#define FAST_POLLS (&(struct rcl_redfish_poll){.interval_ms = 10})

/* A client of host 0 of @s, back to its tree. */
static struct rcl_redfish_client *fresh(const struct svc *s)
{
	svc_reset(s, 0);
	return svc_client(s, 0, (struct rcl_redfish_opts){0});
}

/* Resource @uri as it is now (json_object_put()), its ETag into *@etag (rcl_free()) if asked. */
static json_object *read_res(struct rcl_redfish_client *c, const char *uri, char **etag)
{
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};
	json_object *body;

	ck_assert_msg(rcl_redfish_get(c, uri, &resp, &err) == RCL_OK, "%s", err.msg);
	body = json_object_get(resp.body);
	if (etag)
		*etag = resp.etag ? rcl_strdup(resp.etag) : NULL;
	rcl_redfish_response_release(&resp);
	return body;
}

/* Property @key of resource @uri as JSON text, e.g. "\"Off\"", for comparing. */
static char *prop(struct rcl_redfish_client *c, const char *uri, const char *key)
{
	json_object *res = read_res(c, uri, NULL), *v = NULL;
	char *text;

	json_object_object_get_ex(res, key, &v);
	text = rcl_strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	json_object_put(res);
	return text;
}

#define ck_prop(c, uri, key, want)                                                                 \
	do {                                                                                       \
		char *got_ = prop(c, uri, key);                                                    \
		ck_assert_str_eq(got_, want);                                                      \
		rcl_free(got_);                                                                    \
	} while (0)

/* How many members collection @uri has. */
static size_t members(struct rcl_redfish_client *c, const char *uri)
{
	json_object *res = read_res(c, uri, NULL), *m;
	size_t n;

	ck_assert(json_object_object_get_ex(res, "Members", &m));
	n = json_object_array_length(m);
	json_object_put(res);
	return n;
}

/* How many volumes drive @uri is a member of. */
static size_t volumes_of(struct rcl_redfish_client *c, const char *uri)
{
	json_object *res = read_res(c, uri, NULL), *links, *v;
	size_t n;

	ck_assert(json_object_object_get_ex(res, "Links", &links));
	ck_assert(json_object_object_get_ex(links, "Volumes", &v));
	n = json_object_array_length(v);
	json_object_put(res);
	return n;
}

#define ck_says(err, text) ck_assert_msg(strstr((err).msg, text), "no '%s' in: %s", text, (err).msg)

static struct rcl_vd_params raid(enum rcl_raid_level level, size_t drives)
{
	return (struct rcl_vd_params){.level = level, .drive_count = drives, .strip_kib = 64};
}

START_TEST(test_create_behind_a_task)
{
	struct rcl_redfish_client *c = fresh(&idrac);
	const char *drives[] = {BAY(6), BAY(7), BAY(8)};
	struct rcl_vd_params p = raid(RCL_RAID5, 3);
	struct rcl_error err = {0};
	char *uri = NULL;
	json_object *vol, *links, *v;

	p.name = "db";
	p.strip_kib = 128;
	p.write = RCL_WRITE_BACK;
	p.read = RCL_NO_READ_AHEAD;
	ck_assert_msg(rcl_redfish_volume_create(c, PERC "/Volumes", &p, drives, FAST_POLLS, &uri,
	                                        &err) == RCL_OK,
	              "%s", err.msg);
	/* the service answered 202: the task monitor was followed to the volume */
	ck_assert_str_eq(uri, VD(2));
	vol = read_res(c, uri, NULL);
	ck_assert(json_object_object_get_ex(vol, "Name", &v));
	ck_assert_str_eq(json_object_get_string(v), "db");
	ck_prop(c, uri, "RAIDType", "\"RAID5\"");
	ck_prop(c, uri, "StripSizeBytes", "131072");
	ck_prop(c, uri, "WriteCachePolicy", "\"ProtectedWriteBack\"");
	ck_prop(c, uri, "ReadCachePolicy", "\"Off\"");
	ck_assert(json_object_object_get_ex(vol, "Links", &links));
	ck_assert(json_object_object_get_ex(links, "Drives", &v));
	ck_assert_uint_eq(json_object_array_length(v), 3);
	json_object_put(vol);
	rcl_free(uri);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_create_answered_at_once)
{
	struct rcl_redfish_client *c = fresh(&modern);
	const char *seven[] = {DRIVE(7), DRIVE(8)}, *nine[] = {DRIVE(9)};
	struct rcl_vd_params p = raid(RCL_RAID1, 2);
	struct rcl_error err = {0};
	char *uri = NULL;

	p.bytes = 1ull << 30;
	ck_assert_msg(rcl_redfish_volume_create(c, STORAGE1 "/Volumes", &p, seven, NULL, &uri,
	                                        &err) == RCL_OK,
	              "%s", err.msg);
	ck_assert_str_eq(uri, VOLUME(3)); /* 201 with the volume */
	ck_prop(c, uri, "CapacityBytes", "1073741824");
	ck_prop(c, uri, "WriteCachePolicy", "\"WriteThrough\"");
	rcl_free(uri);
	svc_faults(&modern, 0, "{\"responses\": {\"create\": 204}}");
	p = raid(RCL_RAID0, 1);
	ck_assert_msg(
	    rcl_redfish_volume_create(c, STORAGE1 "/Volumes", &p, nine, NULL, &uri, &err) == RCL_OK,
	    "%s", err.msg);
	ck_assert_str_eq(uri, VOLUME(4)); /* 204: only its Location */
	ck_prop(c, uri, "RAIDType", "\"RAID0\"");
	rcl_free(uri);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_create_refused_changes_nothing)
{
	struct rcl_redfish_client *c = fresh(&idrac);
	const char *two[] = {BAY(6), BAY(7)}, *used[] = {BAY(0), BAY(6), BAY(7)};
	struct rcl_vd_params p = raid(RCL_RAID6, 2);
	struct rcl_error err = {0};
	char *uri = NULL;
	int posts;

	ck_assert_int_eq(
	    rcl_redfish_volume_create(c, PERC "/Volumes", &p, two, FAST_POLLS, &uri, &err),
	    RCL_INVALID_PARAM);
	ck_says(err, "POST '" PERC "/Volumes' refused by '127.0.0.1:");
	ck_says(err, "(400 Bad Request): RAID6 takes 4 or more drives, not 2. "
	             "(Base.1.18.PropertyValueConflict) Resolution: Change the RAID level or "
	             "the number of drives.");
	p = raid(RCL_RAID5, 3);
	ck_assert_int_eq(
	    rcl_redfish_volume_create(c, PERC "/Volumes", &p, used, FAST_POLLS, &uri, &err),
	    RCL_INVALID_PARAM);
	ck_says(err, "Drive Disk.Bay.0:Enclosure.Internal.0-1:RAID.Integrated.1-1 is in use");
	ck_says(err, "Resolution: Choose drives that are free");
	/* what a Volume cannot say is refused before any request */
	posts = svc_count(&idrac, 0, "POST");
	p.spares = (const struct rcl_drive_ref[]){{0, 9}};
	p.spare_count = 1;
	ck_assert_int_eq(
	    rcl_redfish_volume_create(c, PERC "/Volumes", &p, used, FAST_POLLS, &uri, &err),
	    RCL_UNSUPPORTED);
	ck_says(err, "dedicated hot spares at creation is not supported by this controller "
	             "(redfish)");
	p.spare_count = 0;
	p.io = RCL_IO_CACHED;
	ck_assert_int_eq(
	    rcl_redfish_volume_create(c, PERC "/Volumes", &p, used, FAST_POLLS, &uri, &err),
	    RCL_UNSUPPORTED);
	ck_assert_int_eq(svc_count(&idrac, 0, "POST"), posts);
	ck_assert_ptr_null(uri);
	ck_assert_uint_eq(members(c, PERC "/Volumes"), 2);
	ck_assert_uint_eq(volumes_of(c, BAY(6)), 0);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_create_task_that_fails)
{
	struct rcl_redfish_client *c = fresh(&idrac);
	const char *drives[] = {BAY(6)};
	struct rcl_vd_params p = raid(RCL_RAID0, 1);
	struct rcl_error err = {0};
	char *uri = NULL;

	svc_faults(&idrac, 0,
	           "{\"task_error\": {\"message_id\": \"IDRAC.2.8.STOR023\", \"message\": "
	           "\"The controller is busy.\", \"resolution\": \"Retry once the job queue is "
	           "empty.\"}}");
	ck_assert_int_eq(
	    rcl_redfish_volume_create(c, PERC "/Volumes", &p, drives, FAST_POLLS, &uri, &err),
	    RCL_INVALID_PARAM);
	/* the task monitor's last answer is the error */
	ck_says(err, "(400 Bad Request): The controller is busy. (IDRAC.2.8.STOR023) "
	             "Resolution: Retry once the job queue is empty.");
	ck_assert_uint_eq(volumes_of(c, BAY(6)), 0);
	ck_assert_ptr_null(uri);
	ck_assert_uint_eq(members(c, PERC "/Volumes"), 2);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_delete_volume)
{
	struct rcl_redfish_client *c = fresh(&idrac);
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	ck_assert_msg(rcl_redfish_volume_delete(c, VD(0), FAST_POLLS, &err) == RCL_OK, "%s",
	              err.msg);
	ck_assert_int_eq(rcl_redfish_get(c, VD(0), &resp, &err), RCL_NOT_FOUND);
	ck_assert_uint_eq(members(c, PERC "/Volumes"), 1);
	ck_assert_uint_eq(volumes_of(c, BAY(0)), 0);
	/* gone: the service's 404 in its words */
	ck_assert_int_eq(rcl_redfish_volume_delete(c, VD(0), FAST_POLLS, &err), RCL_NOT_FOUND);
	ck_says(err, "(404 Not Found): Nothing exists at " VD(
	                 0) ". "
	                    "(Base.1.18.ResourceMissingAtURI) Resolution: ");
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_delete_refused_while_initializing)
{
	struct rcl_redfish_client *c = fresh(&modern);
	json_object *vol = read_res(c, VOLUME(2), NULL);
	struct rcl_error err = {0};

	ck_assert_msg(rcl_redfish_volume_initialize(c, VOLUME(2), vol, false, &err) == RCL_OK, "%s",
	              err.msg);
	ck_assert_int_eq(rcl_redfish_volume_delete(c, VOLUME(2), NULL, &err), RCL_INVALID_PARAM);
	ck_says(err, "DELETE '" VOLUME(2) "' refused by");
	ck_says(err, "is in use or busy, so it cannot change now. (Base.1.18.ResourceInUse) "
	             "Resolution: Wait for the operation in its Operations property to finish.");
	ck_assert_uint_eq(members(c, STORAGE1 "/Volumes"), 2);
	/* 204: deleted at once */
	ck_assert_msg(rcl_redfish_volume_delete(c, VOLUME(1), NULL, &err) == RCL_OK, "%s", err.msg);
	ck_assert_uint_eq(members(c, STORAGE1 "/Volumes"), 1);
	json_object_put(vol);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_policies_patched_with_etag)
{
	struct rcl_redfish_client *c = fresh(&modern);
	struct rcl_vd_props props = rcl_vd_props_keep();
	struct rcl_error err = {0};
	char *etag, *stale;
	json_object *vol = read_res(c, VOLUME(1), &etag);
	int patches;

	ck_assert_ptr_nonnull(etag);
	props.name = "boot";
	props.write = RCL_WRITE_THROUGH;
	props.read = RCL_NO_READ_AHEAD;
	ck_assert_msg(rcl_redfish_volume_set(c, VOLUME(1), vol, etag, &props, &err) == RCL_OK, "%s",
	              err.msg);
	ck_prop(c, VOLUME(1), "DisplayName", "\"boot\"");
	ck_prop(c, VOLUME(1), "WriteCachePolicy", "\"WriteThrough\"");
	ck_prop(c, VOLUME(1), "ReadCachePolicy", "\"Off\"");
	/* the ETag read before that change is stale now: 412, and nothing changes */
	stale = etag;
	props = rcl_vd_props_keep();
	props.write = RCL_WRITE_BACK_ALWAYS;
	ck_assert_int_eq(rcl_redfish_volume_set(c, VOLUME(1), vol, stale, &props, &err), RCL_BUSY);
	ck_says(err, "PATCH '" VOLUME(1) "' refused by");
	ck_says(err, "(412 Precondition Failed): If-Match ");
	ck_says(err, "(Base.1.18.PreconditionFailed) Resolution: Read the resource again and "
	             "retry with its new ETag.");
	ck_prop(c, VOLUME(1), "WriteCachePolicy", "\"WriteThrough\"");
	json_object_put(vol);
	/* read again: its new ETag passes */
	vol = read_res(c, VOLUME(1), &etag);
	ck_assert_str_ne(etag, stale);
	ck_assert_msg(rcl_redfish_volume_set(c, VOLUME(1), vol, etag, &props, &err) == RCL_OK, "%s",
	              err.msg);
	ck_prop(c, VOLUME(1), "WriteCachePolicy", "\"UnprotectedWriteBack\"");
	/* what a Volume has no property for: refused before any request */
	patches = svc_count(&modern, 0, "PATCH");
	props = rcl_vd_props_keep();
	props.access = RCL_ACCESS_RO;
	ck_assert_int_eq(rcl_redfish_volume_set(c, VOLUME(1), vol, NULL, &props, &err),
	                 RCL_UNSUPPORTED);
	ck_says(err, "accesspolicy= is not supported by this controller (redfish)");
	ck_assert_int_eq(svc_count(&modern, 0, "PATCH"), patches);
	json_object_put(vol);
	rcl_free(etag);
	rcl_free(stale);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_policies_without_etags)
{
	struct rcl_redfish_client *c = fresh(&idrac);
	struct rcl_vd_props props = rcl_vd_props_keep();
	struct rcl_error err = {0};
	char *etag;
	json_object *vol = read_res(c, VD(1), &etag);

	ck_assert_ptr_null(etag);
	props.write = RCL_WRITE_THROUGH;
	ck_assert_msg(rcl_redfish_volume_set(c, VD(1), vol, NULL, &props, &err) == RCL_OK, "%s",
	              err.msg);
	ck_prop(c, VD(1), "WriteCachePolicy", "\"WriteThrough\"");
	/* no DisplayName: the name is Name, which this BMC keeps read-only */
	props = rcl_vd_props_keep();
	props.name = "scratch";
	ck_assert_int_eq(rcl_redfish_volume_set(c, VD(1), vol, NULL, &props, &err),
	                 RCL_INVALID_PARAM);
	ck_says(err, "(400 Bad Request): Name is read-only here. (Base.1.18.PropertyNotWritable) "
	             "Resolution: Leave the property out of the request.");
	ck_prop(c, VD(1), "Name", "\"data\"");
	json_object_put(vol);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_locate_by_indicator_led)
{
	struct rcl_redfish_client *c = fresh(&idrac);
	json_object *drive = read_res(c, BAY(3), NULL);
	struct rcl_error err = {0};

	ck_assert_msg(rcl_redfish_drive_locate(c, BAY(3), drive, NULL, true, &err) == RCL_OK, "%s",
	              err.msg);
	ck_prop(c, BAY(3), "IndicatorLED", "\"Blinking\"");
	ck_assert_msg(rcl_redfish_drive_locate(c, BAY(3), drive, NULL, false, &err) == RCL_OK, "%s",
	              err.msg);
	ck_prop(c, BAY(3), "IndicatorLED", "\"Off\"");
	/* a drive with neither property: nothing to ask */
	json_object_object_del(drive, "IndicatorLED");
	ck_assert_int_eq(rcl_redfish_drive_locate(c, BAY(3), drive, NULL, true, &err),
	                 RCL_UNSUPPORTED);
	ck_says(err, "locate is not supported by this controller (redfish)");
	json_object_put(drive);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_locate_by_location_indicator)
{
	struct rcl_redfish_client *c = fresh(&modern);
	struct rcl_error err = {0};
	char *etag;
	json_object *drive = read_res(c, DRIVE(3), &etag);

	ck_assert_msg(rcl_redfish_drive_locate(c, DRIVE(3), drive, etag, true, &err) == RCL_OK,
	              "%s", err.msg);
	ck_prop(c, DRIVE(3), "LocationIndicatorActive", "true");
	/* the drive changed since it was read (by the locate above): 412 */
	ck_assert_int_eq(rcl_redfish_drive_locate(c, DRIVE(3), drive, etag, false, &err), RCL_BUSY);
	ck_says(err, "(412 Precondition Failed)");
	ck_prop(c, DRIVE(3), "LocationIndicatorActive", "true");
	json_object_put(drive);
	rcl_free(etag);
	rcl_redfish_client_free(c);
}
END_TEST

/* Where task @kind stands on @uri now (each GET moves the service's operations on). */
static struct rcl_task_progress progress(struct rcl_redfish_client *c, const char *uri,
                                         enum rcl_task_kind kind)
{
	json_object *res = read_res(c, uri, NULL);
	struct rcl_task_progress p;
	struct rcl_error err = {0};

	ck_assert_msg(rcl_redfish_operation_progress(res, uri, kind, &p, &err) == RCL_OK, "%s",
	              err.msg);
	json_object_put(res);
	return p;
}

START_TEST(test_secure_erase_and_its_progress)
{
	struct rcl_redfish_client *c = fresh(&modern);
	json_object *free7 = read_res(c, DRIVE(7), NULL), *member = read_res(c, DRIVE(1), NULL);
	struct rcl_task_progress p;
	struct rcl_error err = {0};

	ck_assert_msg(rcl_redfish_drive_erase(c, DRIVE(7), free7, RCL_ERASE_AUTO, &err) == RCL_OK,
	              "%s", err.msg);
	/* each GET of the drive moves the service's sanitize 25% on, until it is gone */
	for (int want = 25; want < 100; want += 25) {
		p = progress(c, DRIVE(7), RCL_TASK_ERASE);
		ck_assert_int_eq(p.state, RCL_TASK_STATE_RUNNING);
		ck_assert_int_eq(p.percent, want);
	}
	p = progress(c, DRIVE(7), RCL_TASK_ERASE);
	ck_assert_int_eq(p.state, RCL_TASK_STATE_STOPPED);
	ck_assert_int_eq(p.percent, -1);
	/* a member of a volume: the service refuses, in its words */
	ck_assert_int_eq(rcl_redfish_drive_erase(c, DRIVE(1), member, RCL_ERASE_CRYPTO, &err),
	                 RCL_INVALID_PARAM);
	ck_says(err, "POST '" DRIVE(1) "/Actions/Drive.SecureErase' refused by");
	ck_says(err,
	        "Drive 1 is in use or busy, so it cannot change now. (Base.1.18.ResourceInUse) "
	        "Resolution: Delete its volume or unassign the spare first.");
	ck_assert_int_eq(progress(c, DRIVE(1), RCL_TASK_ERASE).state, RCL_TASK_STATE_STOPPED);
	ck_assert_int_eq(rcl_redfish_drive_erase(c, DRIVE(7), free7, RCL_ERASE_FORMAT, &err),
	                 RCL_UNSUPPORTED);
	/* passes of patterns are raidcli's own erase: a BMC's drive sanitizes itself */
	ck_assert_int_eq(rcl_redfish_drive_erase(c, DRIVE(7), free7, RCL_ERASE_THOROUGH, &err),
	                 RCL_UNSUPPORTED);
	ck_says(err, "start erase crypto|blockerase|overwrite");
	json_object_put(free7);
	json_object_put(member);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_initialize_and_operations_progress)
{
	struct rcl_redfish_client *c = fresh(&idrac);
	json_object *vd0 = read_res(c, VD(0), NULL);
	struct rcl_task_progress p;
	struct rcl_error err = {0};

	/* 202 with a task on this BMC: started, not waited for */
	ck_assert_msg(rcl_redfish_volume_initialize(c, VD(0), vd0, true, &err) == RCL_OK, "%s",
	              err.msg);
	p = progress(c, VD(0), RCL_TASK_INIT);
	ck_assert_int_eq(p.state, RCL_TASK_STATE_RUNNING);
	ck_assert_int_eq(p.percent, 25);
	ck_assert_int_eq(progress(c, VD(0), RCL_TASK_CC).state, RCL_TASK_STATE_STOPPED);
	/* once more while it runs: refused */
	ck_assert_int_eq(rcl_redfish_volume_initialize(c, VD(0), vd0, false, &err),
	                 RCL_INVALID_PARAM);
	ck_says(err, "(Base.1.18.ResourceInUse) Resolution: Wait for the operation");
	/* the tree's own rebuild, named only by OperationName */
	p = progress(c, VD(1), RCL_TASK_REBUILD);
	ck_assert_int_eq(p.state, RCL_TASK_STATE_RUNNING);
	ck_assert_int_eq(p.percent, 42);
	ck_assert_int_eq(p.kind, RCL_TASK_REBUILD);
	json_object_put(vd0);
	rcl_redfish_client_free(c);
}
END_TEST

/* A newer service names the operation with the Operation enum; its Initialize answers 204. */
START_TEST(test_operation_enum_progress)
{
	struct rcl_redfish_client *c = fresh(&modern);
	json_object *vol = read_res(c, VOLUME(1), NULL);
	struct rcl_task_progress p;
	struct rcl_error err = {0};

	p = progress(c, VOLUME(1), RCL_TASK_CC);
	ck_assert_int_eq(p.state, RCL_TASK_STATE_RUNNING);
	ck_assert_int_eq(p.percent, 30);
	ck_assert_int_eq(progress(c, VOLUME(1), RCL_TASK_INIT).state, RCL_TASK_STATE_STOPPED);
	ck_assert_msg(rcl_redfish_volume_initialize(c, VOLUME(1), vol, false, &err) == RCL_OK, "%s",
	              err.msg);
	p = progress(c, VOLUME(1), RCL_TASK_INIT);
	ck_assert_int_eq(p.state, RCL_TASK_STATE_RUNNING);
	ck_assert_int_eq(p.percent, 25);
	json_object_put(vol);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_hot_spares)
{
	struct rcl_redfish_client *c = fresh(&modern);
	struct rcl_error err = {0};
	char *etag;
	json_object *d7 = read_res(c, DRIVE(7), &etag), *d1 = read_res(c, DRIVE(1), NULL);

	ck_assert_msg(rcl_redfish_drive_spare(c, DRIVE(7), d7, etag, true, false, 0, &err) ==
	                  RCL_OK,
	              "%s", err.msg);
	ck_prop(c, DRIVE(7), "HotspareType", "\"Global\"");
	rcl_free(etag);
	json_object_put(d7);
	d7 = read_res(c, DRIVE(7), &etag);
	ck_assert_msg(rcl_redfish_drive_spare(c, DRIVE(7), d7, etag, false, false, 0, &err) ==
	                  RCL_OK,
	              "%s", err.msg);
	ck_prop(c, DRIVE(7), "HotspareType", "\"None\"");
	ck_assert_int_eq(rcl_redfish_drive_spare(c, DRIVE(1), d1, NULL, true, false, 0, &err),
	                 RCL_INVALID_PARAM);
	ck_says(err, "Drive 1 is in use or busy, so it cannot change now. "
	             "(Base.1.18.ResourceInUse) Resolution: Choose a drive in no volume");
	ck_prop(c, DRIVE(1), "HotspareType", "\"None\"");
	/* a drive that has HotspareReplacementMode gets it sent (this service has none: refused) */
	json_object_object_add(d7, "HotspareReplacementMode", json_object_new_string("Revertible"));
	ck_assert_int_eq(rcl_redfish_drive_spare(c, DRIVE(7), d7, NULL, true, false,
	                                         RCL_SPARE_NONREVERTIBLE, &err),
	                 RCL_INVALID_PARAM);
	ck_says(err, "HotspareReplacementMode is not a property of this resource.");
	ck_prop(c, DRIVE(7), "HotspareType", "\"None\"");
	ck_assert_int_eq(rcl_redfish_drive_spare(c, DRIVE(7), d7, NULL, true, true, 0, &err),
	                 RCL_UNSUPPORTED);
	ck_says(err, "dedicated hot spares is not supported by this controller (redfish)");
	ck_assert_int_eq(rcl_redfish_drive_spare(c, DRIVE(7), d7, NULL, true, false,
	                                         RCL_SPARE_ENCL_AFFINITY, &err),
	                 RCL_UNSUPPORTED);
	json_object_put(d7);
	json_object_put(d1);
	rcl_free(etag);
	rcl_redfish_client_free(c);
}
END_TEST

/* A BMC that shows HotspareType but lets no one write it. */
START_TEST(test_hot_spare_refused)
{
	struct rcl_redfish_client *c = fresh(&idrac);
	json_object *d7 = read_res(c, BAY(7), NULL);
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_redfish_drive_spare(c, BAY(7), d7, NULL, true, false, 0, &err),
	                 RCL_INVALID_PARAM);
	ck_says(err, "HotspareType is read-only here. (Base.1.18.PropertyNotWritable)");
	ck_prop(c, BAY(7), "HotspareType", "\"None\"");
	json_object_put(d7);
	rcl_redfish_client_free(c);
}
END_TEST

/* A BMC answering with every value of the wrong type: each reader says which property. */
START_TEST(test_wrong_types_reported)
{
	struct rcl_redfish_client *c = fresh(&modern);
	json_object *vol;
	struct rcl_task_progress p;
	struct rcl_error err = {0};
	int posts;

	svc_faults(&modern, 0, "{\"wrong_types\": [\"*\"]}");
	vol = read_res(c, VOLUME(2), NULL);
	ck_assert_int_eq(rcl_redfish_operation_progress(vol, VOLUME(2), RCL_TASK_REBUILD, &p, &err),
	                 RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "'Operations' of '" VOLUME(2) "' is an object, not an array");
	posts = svc_count(&modern, 0, "POST");
	/* Actions is right, but the target is a number: no request */
	ck_assert_int_eq(rcl_redfish_volume_initialize(c, VOLUME(2), vol, false, &err),
	                 RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "'target' of '" VOLUME(2) "' is an int, not a string");
	ck_assert_int_eq(svc_count(&modern, 0, "POST"), posts);
	json_object_put(vol);
	/* an Operations entry of the wrong shape */
	vol = json_tokener_parse("{\"Operations\": [{\"Operation\": \"Rebuild\", "
	                         "\"PercentageComplete\": \"60\"}, 7]}");
	ck_assert_int_eq(rcl_redfish_operation_progress(vol, "v", RCL_TASK_REBUILD, &p, &err),
	                 RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "'PercentageComplete' of 'v' is a string, not an int");
	ck_assert_int_eq(rcl_redfish_operation_progress(vol, "v", RCL_TASK_CC, &p, &err),
	                 RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "an entry of 'Operations' of 'v' is int, not an object");
	json_object_put(vol);
	/* a missing action */
	vol = json_tokener_parse("{\"Actions\": {}}");
	ck_assert_int_eq(rcl_redfish_volume_initialize(c, "v", vol, false, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "#Volume.Initialize on 'v' is not supported by this controller "
	                          "(redfish); its Actions list no such action");
	json_object_put(vol);
	rcl_redfish_client_free(c);
}
END_TEST

/* A create, an allocation failing at every step: RCL_NOMEM or done, never a crash or leak. */
START_TEST(test_create_out_of_memory)
{
	const char *drives[] = {DRIVE(7)};
	struct rcl_vd_params p = raid(RCL_RAID0, 1);
	unsigned long n;

	p.name = "oom";
	for (n = 1; n < 1000; n++) {
		for (int persistent = 0; persistent < 2; persistent++) {
			struct rcl_redfish_client *c = fresh(&modern);
			struct rcl_error err = {0};
			enum rcl_status st;
			char *uri = NULL;

			rcl_alloc_fail_after(n, persistent);
			st = rcl_redfish_volume_create(c, STORAGE1 "/Volumes", &p, drives, NULL,
			                               &uri, &err);
			rcl_redfish_client_free(c);
			if (rcl_alloc_fail_after(0, false) < n) {
				ck_assert_msg(st == RCL_OK, "%s", err.msg);
				ck_assert_str_eq(uri, VOLUME(3));
				rcl_free(uri);
				goto done;
			}
			ck_assert_msg(st == RCL_OK || st == RCL_NOMEM, "allocation %lu: %s", n,
			              err.msg);
			ck_assert(st == RCL_OK || !uri);
			rcl_free(uri);
		}
	}
done:
	ck_assert_uint_gt(n, 5);
	ck_assert_uint_lt(n, 1000);
}
END_TEST

/* One crawl of @c's two Storages, allocation @n failing (and all after it when @persistent). */
static bool crawl_failing(struct rcl_redfish_client *c, unsigned long n, bool persistent)
{
	struct rcl_redfish_target t[2] = {{.client = c, .storage = STORAGE1},
	                                  {.client = c, .storage = STORAGE2}};
	struct rcl_error err = {0};
	enum rcl_status st;
	bool done;

	rcl_alloc_fail_after(n, persistent);
	st = rcl_redfish_crawl(t, 2, &err);
	done = rcl_alloc_fail_after(0, false) < n;
	ck_assert_msg(st == RCL_OK || st == RCL_NOMEM, "allocation %lu: %s", n, err.msg);
	for (int k = 0; k < 2; k++) {
		ck_assert(st ? !t[k].docs : !t[k].docs == !!t[k].err.status);
		ck_assert_msg(!done || t[k].docs, "%s", t[k].err.msg);
		json_object_put(t[k].docs);
	}
	return done;
}

/*
 * Both Storages of a BMC read at once, their Chassis shared, an allocation
 * failing at every step: RCL_NOMEM or each one's cache, never a crash or leak.
 */
START_TEST(test_crawl_out_of_memory)
{
	unsigned long n;
	bool done = false;

	for (n = 1; !done && n < 2000; n++) {
		for (int persistent = 0; !done && persistent < 2; persistent++) {
			struct rcl_redfish_client *c = fresh(&modern);

			done = crawl_failing(c, n, persistent);
			rcl_redfish_client_free(c);
		}
	}
	printf("oom: a crawl of two Storages, %lu allocations\n", n);
	ck_assert_uint_gt(n, 5);
	ck_assert_uint_lt(n, 2000);
}
END_TEST

static void idrac_start(void)
{
	static const char *const args[] = {"--tree", "idrac", NULL};

	svc_start(&idrac, args);
}

static void idrac_stop(void)
{
	svc_stop(&idrac);
}

static void modern_start(void)
{
	static const char *const args[] = {"--tree", "modern", NULL};

	svc_start(&modern, args);
}

static void modern_stop(void)
{
	svc_stop(&modern);
}

static Suite *redfish_actions_suite(void)
{
	Suite *s = suite_create("redfish-actions");
	TCase *tc;

	tc = tcase_create("idrac");
	tcase_add_unchecked_fixture(tc, idrac_start, idrac_stop);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_create_behind_a_task);
	tcase_add_test(tc, test_create_refused_changes_nothing);
	tcase_add_test(tc, test_create_task_that_fails);
	tcase_add_test(tc, test_delete_volume);
	tcase_add_test(tc, test_policies_without_etags);
	tcase_add_test(tc, test_locate_by_indicator_led);
	tcase_add_test(tc, test_initialize_and_operations_progress);
	tcase_add_test(tc, test_hot_spare_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("modern");
	tcase_add_unchecked_fixture(tc, modern_start, modern_stop);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_create_answered_at_once);
	tcase_add_test(tc, test_delete_refused_while_initializing);
	tcase_add_test(tc, test_policies_patched_with_etag);
	tcase_add_test(tc, test_locate_by_location_indicator);
	tcase_add_test(tc, test_secure_erase_and_its_progress);
	tcase_add_test(tc, test_hot_spares);
	tcase_add_test(tc, test_operation_enum_progress);
	tcase_add_test(tc, test_create_out_of_memory);
	tcase_add_test(tc, test_crawl_out_of_memory);
	tcase_add_test(tc, test_wrong_types_reported);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(redfish_actions_suite());
}
