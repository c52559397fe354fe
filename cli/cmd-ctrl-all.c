// SPDX-License-Identifier: MIT
/*
 * cmd-ctrl-all.c - /cN show all: every section StorCLI 007.x prints, read
 * from the model (struct rcl_ctrl_info), the capability record (struct
 * rcl_caps) and the task settings; and /cN set storclicompat=, the StorCLI
 * compatibility mode those sections honour.
 *
 * StorCLI prints a section whether or not the card has the part it
 * describes: a card without a battery says "BBU = Absent", one without
 * security says "Security Protocol = None". So does raidcli: a row whose
 * part or feature the model has no notion of (a PCI function, a BIOS, a
 * security key, a cluster) holds what StorCLI prints on a card without it,
 * the same for every kind, since raidcli offers no command for it on any
 * controller. Rows about what a controller can do read its caps.
 *
 * Over 800 lines: StorCLI's ~300 "show all" keys, most of them one table
 * row each, in StorCLI's order; one concern, read section by section.
 */
#include <string.h>
#include <time.h>

#include "cli.h"

/* What a "show all" section reads. */
struct view {
	const struct rcl_ctrl_info *info;
	const struct rcl_caps *caps;
	const struct rcl_ctrl_settings *settings; /* NULL: the controller has none */
	const struct rcl_schedule_status *status; /* with @settings */
	bool compat;                              /* storclicompat=megaraid_sas */
};

/* Where a row's value comes from. */
enum row_src {
	ROW_WORD,      /* @word: a part the model has none of, as StorCLI shows its absence */
	ROW_ZERO,      /* the number 0: a count of such a part (no memory: no ECC errors) */
	ROW_NONE,      /* "No": a feature no controller offers through raidcli */
	ROW_API,       /* "Yes": an operation the library offers on every controller */
	ROW_SETTING,   /* whether caps->settings has bit @arg */
	ROW_TASK,      /* whether caps->tasks has bit @arg */
	ROW_ACTION,    /* whether caps->drive_actions has bit @arg */
	ROW_ANY_TASK,  /* whether it runs background tasks at all */
	ROW_BACKUP,    /* whether its cache has a battery or CacheVault */
	ROW_SPANS,     /* whether a VD may have more than one span */
	ROW_EMERGENCY, /* whether it takes an unconfigured drive when no spare is left */
};

/*
 * struct row - one row of a section. @deny: StorCLI's "Deny X" rows, "Yes"
 * when X is not supported.
 */
struct row {
	const char *key;
	enum row_src src;
	unsigned arg;
	const char *word;
	bool deny;
};

/* One row per line, as the tables read. */
/* clang-format off */
#define WORD(k, w)    {.key = k, .src = ROW_WORD, .word = w}
#define ZERO(k)       {.key = k, .src = ROW_ZERO}
#define NONE(k)       {.key = k, .src = ROW_NONE}
#define API(k)        {.key = k, .src = ROW_API}
#define SET(k, s)     {.key = k, .src = ROW_SETTING, .arg = RCL_SETTING_##s}
#define TASK(k, t)    {.key = k, .src = ROW_TASK, .arg = RCL_TASK_##t}
#define ACTION(k, a)  {.key = k, .src = ROW_ACTION, .arg = RCL_DRIVE_ACTION_##a}
#define SRC(k, s)     {.key = k, .src = ROW_##s}
#define DENY(k, s, a) {.key = k, .src = ROW_##s, .arg = a, .deny = true}
/* clang-format on */
#define ROWS(section) section, sizeof(section) / sizeof(section[0])

static bool row_supported(const struct row *r, const struct rcl_caps *caps)
{
	switch (r->src) {
	case ROW_API:
		return true;
	case ROW_SETTING:
		return caps->settings >> r->arg & 1;
	case ROW_TASK:
		return caps->tasks >> r->arg & 1;
	case ROW_ACTION:
		return caps->drive_actions >> r->arg & 1;
	case ROW_ANY_TASK:
		return caps->tasks != 0;
	case ROW_BACKUP:
		return caps->backup != RCL_BACKUP_NONE;
	case ROW_SPANS:
		return caps->max_spans > 1;
	case ROW_EMERGENCY:
		return caps->emergency_spare;
	default:
		return false;
	}
}

static void add_rows(struct rcl_node *section, const struct rcl_caps *caps, const struct row *rows,
                     size_t count)
{
	for (size_t i = 0; i < count; i++) {
		const struct row *r = &rows[i];

		if (r->src == ROW_WORD)
			rcl_node_add_str(section, r->key, r->word);
		else if (r->src == ROW_ZERO)
			rcl_node_add_int(section, r->key, 0);
		else
			rcl_node_add_str(section, r->key,
			                 row_supported(r, caps) != r->deny ? "Yes" : "No");
	}
}

/*
 * The ROC's temperature: StorCLI prints it only with a sensor (a card's
 * that reports one); without, the megaraid_sas mode prints 0, as its
 * consumers parse the number and stop without it (raidcli(8),
 * COMPATIBILITY).
 */
static void add_roc_temperature(struct rcl_node *section, const struct view *v)
{
	if (v->info->roc_temperature_c || v->compat)
		rcl_node_add_int(section, "ROC temperature(Degree Celsius)",
		                 v->info->roc_temperature_c);
}

/* The controller's clock: a card's own as it was read, else the system's. */
static time_t ctrl_time(const struct rcl_ctrl_info *info)
{
	return info->clock ? info->clock : time(NULL);
}

static const char *or_na(const char *text)
{
	return text[0] ? text : "NA";
}

/* @key: @value as "0x1000", or NA for 0 (unknown). */
static void add_pci_id(struct rcl_node *section, const char *key, uint16_t value)
{
	if (value)
		rcl_node_add_strf(section, key, "0x%04x", value);
	else
		rcl_node_add_str(section, key, "NA");
}

/* The PCI function @info->pci_address as its four numbers (domain first); false if unknown. */
static bool pci_place(const struct rcl_ctrl_info *info, unsigned place[4])
{
	return sscanf(info->pci_address, "%x:%x:%x.%x", &place[0], &place[1], &place[2],
	              &place[3]) == 4;
}

/* StorCLI's "PCI Address": domain, bus, device and function, "00:03:00:00". */
static void add_pci_address(struct rcl_node *section, const struct rcl_ctrl_info *info)
{
	unsigned p[4];

	if (pci_place(info, p))
		rcl_node_add_strf(section, "PCI Address", "%02x:%02x:%02x:%02x", p[0], p[1], p[2],
		                  p[3]);
	else
		rcl_node_add_str(section, "PCI Address", "NA");
}

/* The PCI function and its interfaces, as "/cN show" and the "Bus" section print them. */
static void add_bus(struct rcl_node *section, const struct rcl_ctrl_info *info)
{
	static const char *const place_keys[] = {"Domain ID", "Bus Number", "Device Number",
	                                         "Function Number"};
	unsigned p[4];
	bool known = pci_place(info, p);

	add_pci_id(section, "Vendor Id", info->pci_vendor);
	add_pci_id(section, "Device Id", info->pci_device);
	add_pci_id(section, "SubVendor Id", info->pci_subvendor);
	add_pci_id(section, "SubDevice Id", info->pci_subdevice);
	rcl_node_add_str(section, "Host Interface", or_na(info->host_interface));
	rcl_node_add_str(section, "Device Interface", or_na(info->device_interface));
	/* StorCLI's order: bus, device, function, then domain. */
	for (int i = 1; i <= 4; i++) {
		if (known)
			rcl_node_add_int(section, place_keys[i % 4], p[i % 4]);
		else
			rcl_node_add_str(section, place_keys[i % 4], "NA");
	}
}

static const char *driver_name(const struct rcl_ctrl_info *info, bool compat)
{
	return compat ? "megaraid_sas" : info->driver_name;
}

/*
 * List @key of @data, empty when the adder left it out: consumers index
 * "VD LIST" and "PD LIST" whenever the counts are there (text skips it).
 */
static void keep_list(struct rcl_node *data, const char *key)
{
	if (!rcl_node_find(data, key))
		rcl_node_add_array(data, key);
}

static void add_counts_and_lists(struct rcl_node *data, const struct rcl_ctrl *ctrl)
{
	rcl_node_add_int(data, "Drive Groups", (long long)rcl_ctrl_dg_count(ctrl));
	add_topology(data, ctrl, NULL);
	rcl_node_add_int(data, "Virtual Drives", (long long)rcl_ctrl_vd_count(ctrl));
	add_vd_list(data, ctrl, "VD LIST", NULL);
	keep_list(data, "VD LIST");
	rcl_node_add_int(data, "Physical Drives", (long long)rcl_ctrl_drive_count(ctrl));
	add_pd_list(data, ctrl, "PD LIST");
	keep_list(data, "PD LIST");
	rcl_node_add_int(data, "Enclosures", (long long)rcl_ctrl_enclosure_count(ctrl));
	add_enclosure_rows(rcl_node_add_array(data, "Enclosure LIST"), ctrl, NULL);
}

/* raidcli's own rows: the backend, and the mode that may have changed "Driver Name". */
static void add_backend(struct rcl_node *data, const struct rcl_ctrl *ctrl)
{
	rcl_node_add_str(data, "Controller Backend", rcl_ctrl_info(ctrl)->backend);
	rcl_node_add_str(data, "StorCLI Compatibility",
	                 rcl_storcli_compat_name(rcl_ctrl_storcli_compat(ctrl)));
}

/* @t as the summary prints times: without StorCLI's comma. */
static void add_summary_time(struct rcl_node *data, const char *key, time_t t)
{
	char text[32];

	format_time(text, sizeof(text), t);
	if (text[10] == ',') { /* "12/07/2026 03:00:00" */
		text[10] = ' ';
		memmove(text + 11, text + 12, strlen(text + 12) + 1);
	}
	rcl_node_add_str(data, key, text);
}

enum rcl_status cmd_ctrl_show(struct cmd_ctx *c, struct rcl_error *err)
{
	const struct rcl_ctrl_info *info = rcl_ctrl_info(c->ctrl);
	struct rcl_node *data = c->res->data;
	bool compat = rcl_ctrl_storcli_compat(c->ctrl) == RCL_STORCLI_COMPAT_MEGARAID_SAS;

	(void)err;
	rcl_node_add_str(data, "Product Name", info->model);
	rcl_node_add_str(data, "Serial Number", info->serial);
	rcl_node_add_str(data, "SAS Address", "NA");
	add_pci_address(data, info);
	add_summary_time(data, "System Time", time(NULL));
	rcl_node_add_str(data, "Mfg. Date", "NA");
	add_summary_time(data, "Controller Time", ctrl_time(info));
	rcl_node_add_str(data, "FW Package Build",
	                 info->package[0] ? info->package : info->firmware);
	rcl_node_add_str(data, "BIOS Version", "NA");
	rcl_node_add_str(data, "FW Version", info->firmware);
	rcl_node_add_str(data, "Driver Name", driver_name(info, compat));
	rcl_node_add_str(data, "Driver Version", info->driver_version);
	add_bus(data, info);
	rcl_node_add_str(data, "Security Protocol", "None");
	add_backend(data, c->ctrl);
	add_counts_and_lists(data, c->ctrl);
	return RCL_OK;
}

static void add_basics(struct rcl_node *data, const struct cmd_ctx *c, const struct view *v)
{
	static const struct row hw[] = {
	    WORD("Mfg Date", "NA"),
	    WORD("Rework Date", "NA"),
	    WORD("Revision No", "NA"),
	};
	struct rcl_node *section = rcl_node_add_object(data, "Basics");
	char now[32], clock[32], created[32];

	format_time(now, sizeof(now), time(NULL));
	format_time(clock, sizeof(clock), ctrl_time(v->info));
	format_time(created, sizeof(created), v->info->created);
	rcl_node_add_int(section, "Controller", rcl_ctrl_id(c->ctrl));
	rcl_node_add_str(section, "Model", v->info->model);
	rcl_node_add_str(section, "Serial Number", v->info->serial);
	/* A soft controller's clock is the system's: the two times agree; a card keeps its own. */
	rcl_node_add_str(section, "Current Controller Date/Time", clock);
	rcl_node_add_str(section, "Current System Date/time", now);
	rcl_node_add_str(section, "SAS Address", "NA");
	add_pci_address(section, v->info);
	add_rows(section, v->caps, ROWS(hw));
	add_backend(section, c->ctrl);
	rcl_node_add_str(section, "Creation Date/Time", created);
}

static void add_version(struct rcl_node *data, const struct view *v)
{
	static const struct row images[] = {
	    WORD("CPLD Version", "NA"),        WORD("Bios Version", "NA"),
	    WORD("HII Version", "NA"),         WORD("Ctrl-R Version", "NA"),
	    WORD("Preboot CLI Version", "NA"), WORD("NVDATA Version", "NA"),
	    WORD("Boot Block Version", "NA"),
	};
	struct rcl_node *section = rcl_node_add_object(data, "Version");

	rcl_node_add_str(section, "Firmware Package Build",
	                 v->info->package[0] ? v->info->package : v->info->firmware);
	rcl_node_add_str(section, "Firmware Version", v->info->firmware);
	add_rows(section, v->caps, ROWS(images));
	rcl_node_add_str(section, "Driver Name", driver_name(v->info, v->compat));
	rcl_node_add_str(section, "Driver Version", v->info->driver_version);
}

static void add_status(struct rcl_node *data, const struct view *v)
{
	static const struct row memory[] = {
	    ZERO("Memory Correctable Errors"),
	    ZERO("Memory Uncorrectable Errors"),
	    ZERO("ECC Bucket Count"),
	    WORD("Any Offline VD Cache Preserved", "No"),
	};
	static const struct row flags[] = {
	    WORD("PD Firmware Download in progress", "No"),
	    ACTION("Support PD Firmware Download", FW_DOWNLOAD),
	    WORD("Lock Key Assigned", "No"),
	    WORD("Failed to get lock key on bootup", "No"),
	    WORD("Lock key has not been backed up", "No"),
	    WORD("Bios was not detected during boot", "No"),
	    WORD("Controller must be rebooted to complete security operation", "No"),
	    WORD("A rollback operation is in progress", "No"),
	    WORD("At least one PFK exists in NVRAM", "No"),
	    WORD("SSC Policy is WB", "No"),
	    WORD("Controller has booted into safe mode", "No"),
	    WORD("Controller shutdown required", "No"),
	    WORD("Controller has booted into certificate provision mode", "No"),
	};
	struct rcl_node *section = rcl_node_add_object(data, "Status");

	rcl_node_add_str(section, "Controller Status", "Optimal");
	add_rows(section, v->caps, ROWS(memory));
	rcl_node_add_str(section, "BBU Status", backup_state(v->caps, v->info, "NA"));
	add_rows(section, v->caps, ROWS(flags));
}

static const struct row adapter_ops[] = {
    SET("Rebuild Rate", REBUILD_RATE),
    SET("CC Rate", CC_RATE),
    SET("BGI Rate ", BGI_RATE), /* StorCLI's key has the space */
    SET("Reconstruct Rate", RECON_RATE),
    SET("Patrol Read Rate", PR_RATE),
    NONE("Alarm Control"),
    NONE("Cluster Support"),
    SRC("BBU", BACKUP),
    SRC("Spanning", SPANS),
    TASK("Dedicated Hot Spare", REBUILD),
    NONE("Revertible Hot Spares"),
    API("Foreign Config Import"),
    NONE("Self Diagnostic"),
    NONE("Allow Mixed Redundancy on Array"),
    TASK("Global Hot Spares", REBUILD),
    DENY("Deny SCSI Passthrough", NONE, 0),
    DENY("Deny SMP Passthrough", NONE, 0),
    DENY("Deny STP Passthrough", NONE, 0),
    NONE("Support more than 8 Phys"),
    NONE("FW and Event Time in GMT"),
    API("Support Enhanced Foreign Import"),
    NONE("Support Enclosure Enumeration"),
    NONE("Support Allowed Operations"),
    NONE("Abort CC on Error"),
    NONE("Support Multipath"),
    NONE("Support Odd & Even Drive count in RAID1E"),
    NONE("Support Security"),
    NONE("Support Config Page Model"),
    NONE("Support the OCE without adding drives"),
    NONE("Support EKM"),
    NONE("Snapshot Enabled"),
    NONE("Support PFK"),
    NONE("Support PI"),
    NONE("Support LDPI Type1"),
    NONE("Support LDPI Type2"),
    NONE("Support LDPI Type3"),
    NONE("Support Ld BBM Info"),
    NONE("Support Shield State"),
    NONE("Block SSD Write Disk Cache Change"),
    SRC("Support Suspend Resume BG ops", ANY_TASK),
    SRC("Support Emergency Spares", EMERGENCY),
    NONE("Support Set Link Speed"),
    NONE("Support Boot Time PFK Change"),
    SET("Support JBOD", JBOD),
    NONE("Disable Online PFK Change"),
    NONE("Support Perf Tuning"),
    TASK("Support SSD PatrolRead", PATROL_READ),
    SET("Real Time Scheduler", PR_SCHEDULE),
    NONE("Support Reset Now"),
    NONE("Support Emulated Drives"),
    NONE("Headless Mode"),
    NONE("Dedicated HotSpares Limited"),
    SRC("Point In Time Progress", ANY_TASK),
    NONE("Extended LD"),
    NONE("Support Uneven span "), /* sic */
    NONE("Support Config Auto Balance"),
    NONE("Support Maintenance Mode"),
    NONE("Support Diagnostic results"),
    NONE("Support Ext Enclosure"),
    NONE("Support Sesmonitoring"),
    NONE("Support SecurityonJBOD"),
    NONE("Support ForceFlash"),
    NONE("Support DisableImmediateIO"),
    NONE("Support LargeIOSupport"),
    NONE("Support DrvActivityLEDSetting"),
    NONE("Support FlushWriteVerify"),
    NONE("Support CPLDUpdate"),
    NONE("Support ForceTo512e"),
    NONE("Support discardCacheDuringLDDelete"),
    NONE("Support JBOD Write cache"),
    NONE("Support Large QD Support"),
    NONE("Support Ctrl Info Extended"),
    NONE("Support IButton less"),
    NONE("Support AES Encryption Algorithm"),
    NONE("Support Encrypted MFC"),
    NONE("Support Snapdump"),
    NONE("Support Force Personality Change"),
    NONE("Support Dual Fw Image"),
    NONE("Support PSOC Update"),
    NONE("Support Secure Boot"),
    NONE("Support Debug Queue"),
    NONE("Support Least Latency Mode"),
    NONE("Support OnDemand Snapdump"),
    NONE("Support Clear Snapdump"),
    NONE("Support PHY current speed"),
    NONE("Support Lane current speed"),
    NONE("Support NVMe Width"),
    NONE("Support Lane DeviceType"),
    NONE("Support Extended Drive performance Monitoring"),
    NONE("Support NVMe Repair"),
    NONE("Support Platform Security"),
    NONE("Support None Mode Params"),
    NONE("Support Extended Controller Property"),
    NONE("Support Smart Poll Interval for DirectAttached"),
    NONE("Support Write Journal Pinning"),
    NONE("Support SMP Passthru with Port Number"),
    NONE("Support NVMe Init Error Device ConnectorIndex"),
};

static const struct row pd_ops[] = {
    API("Force Online"),
    API("Force Offline"),
    TASK("Force Rebuild", REBUILD),
    DENY("Deny Force Failed", NONE, 0), /* no command fails a drive */
    DENY("Deny Force Good/Bad", API, 0),
    DENY("Deny Missing Replace", NONE, 0),
    DENY("Deny Clear", TASK, RCL_TASK_ERASE),
    DENY("Deny Locate", API, 0),
    NONE("Support Power State"),
    NONE("Set Power State For Cfg"),
    NONE("Support T10 Power State"),
    NONE("Support Temperature"),
    NONE("NCQ"),
    NONE("Support Max Rate SATA"),
    NONE("Support Degraded Media"),
    TASK("Support Parallel FW Update", FW_UPDATE),
    NONE("Support Drive Crypto Erase"),
    NONE("Support SSD Wear Gauge"),
};

static const struct row vd_ops[] = {
    SET("Read Policy", VD_POLICY),
    SET("Write Policy", VD_POLICY),
    NONE("IO Policy"),
    SET("Access Policy", VD_POLICY),
    NONE("Disk Cache Policy"),
    TASK("Reconstruction", MIGRATE),
    DENY("Deny Locate", NONE, 0),
    DENY("Deny CC", TASK, RCL_TASK_CC),
    NONE("Allow Ctrl Encryption"),
    NONE("Enable LDBBM"),
    NONE("Support FastPath"),
    NONE("Performance Metrics"),
    NONE("Power Savings"),
    NONE("Support Powersave Max With Cache"),
    NONE("Support Breakmirror"),
    NONE("Support SSC WriteBack"),
    NONE("Support SSC Association"),
    NONE("Support VD Hide"),
    NONE("Support VD Cachebypass"),
    NONE("Support VD discardCacheDuringLDDelete"),
    NONE("Support VD Scsi Unmap"),
};

static void add_hwcfg(struct rcl_node *data, const struct view *v)
{
	static const struct row parts[] = {
	    WORD("ChipRevision", "NA"),
	    WORD("BatteryFRU", "N/A"),
	    ZERO("Front End Port Count"),
	};
	static const struct row more[] = {
	    WORD("Serial Debugger", "Absent"),
	};
	static const struct row chips[] = {
	    WORD("TPM", "Absent"),
	    WORD("Upgrade Key", "Absent"),
	    WORD("On Board Expander", "Absent"),
	};
	static const struct row sensors[] = {
	    WORD("Temperature Sensor for Controller", "Absent"),
	    WORD("Upgradable CPLD", "Absent"),
	    WORD("Upgradable PSOC", "Absent"),
	    ZERO("Current Size of CacheCade (GB)"),
	};
	struct rcl_node *section = rcl_node_add_object(data, "HwCfg");

	add_rows(section, v->caps, ROWS(parts));
	rcl_node_add_int(section, "Backend Port Count", ctrl_ports(v->info));
	rcl_node_add_str(section, "BBU", v->caps->backup ? "Present" : "Absent");
	rcl_node_add_str(section, "Alarm", "Absent");
	add_rows(section, v->caps, ROWS(more));
	if (v->info->nvram_kib)
		rcl_node_add_strf(section, "NVRAM Size", "%uKB", v->info->nvram_kib);
	else
		rcl_node_add_str(section, "NVRAM Size", "NA");
	if (v->info->flash_mib)
		rcl_node_add_strf(section, "Flash Size", "%uMB", v->info->flash_mib);
	else
		rcl_node_add_str(section, "Flash Size", "NA");
	rcl_node_add_strf(section, "On Board Memory Size", "%uMB", v->caps->cache_mib);
	rcl_node_add_str(section, "CacheVault Flash Size",
	                 v->caps->backup == RCL_BACKUP_CACHEVAULT ? "Unknown" : "NA");
	add_rows(section, v->caps, ROWS(chips));
	rcl_node_add_str(section, "Temperature Sensor for ROC",
	                 v->info->roc_temperature_c ? "Present" : "Absent");
	add_rows(section, v->caps, ROWS(sensors));
	rcl_node_add_int(section, "Current Size of FW Cache (MB)", v->caps->cache_mib);
	add_roc_temperature(section, v);
}

/* The rate settings the caps offer, as StorCLI's "Policies Table". */
static void add_policies_table(struct rcl_node *section, const struct view *v)
{
	static const struct {
		enum rcl_setting setting;
		const char *name;
	} rates[] = {
	    {RCL_SETTING_REBUILD_RATE, "Rebuild Rate"},
	    {RCL_SETTING_PR_RATE, "PR Rate"},
	    {RCL_SETTING_BGI_RATE, "BGI Rate"},
	    {RCL_SETTING_CC_RATE, "Check Consistency Rate"},
	    {RCL_SETTING_RECON_RATE, "Reconstruction Rate"},
	};
	struct rcl_node *table = rcl_node_add_array(section, "Policies Table");

	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		struct rcl_node *row;

		if (!v->settings || !(v->caps->settings >> rates[i].setting & 1))
			continue;
		row = rcl_node_add_object(table, NULL);
		rcl_node_add_str(row, "Policy", rates[i].name);
		rcl_node_add_strf(row, "Current", "%u %%", v->settings->rate[rates[i].setting]);
		rcl_node_add_strf(row, "Default", "%u%%", RCL_DEFAULT_RATE);
	}
}

static void add_policies(struct rcl_node *data, const struct view *v)
{
	static const struct row rest[] = {
	    WORD("Flush Time(Default)", "NA"),
	    /* Drives are used in whole MiB (rcl_drive.coerced_bytes). */
	    WORD("Drive Coercion Mode", "1MB"),
	    WORD("Battery Warning", "NA"),
	    ZERO("ECC Bucket Size"),
	    ZERO("ECC Bucket Leak Rate (hrs)"),
	    WORD("Restore Hot Spare on Insertion", "NA"),
	    WORD("Expose Enclosure Devices", "NA"),
	    WORD("Maintain PD Fail History", "NA"),
	    WORD("Reorder Host Requests", "NA"),
	    WORD("Auto detect BackPlane", "NA"),
	    WORD("Load Balance Mode", "NA"),
	    WORD("Security Key Assigned", "Off"),
	    WORD("Disable Online Controller Reset", "NA"),
	    WORD("Use drive activity for locate", "Off"),
	};
	struct rcl_node *section = rcl_node_add_object(data, "Policies");

	add_policies_table(section, v);
	/* A failed member is rebuilt onto a hot spare by itself. */
	rcl_node_add_str(section, "Auto Rebuild",
	                 v->caps->tasks >> RCL_TASK_REBUILD & 1 ? "On" : "Off");
	add_rows(section, v->caps, ROWS(rest));
}

static const struct row boot[] = {
    WORD("BIOS Enumerate VDs", "NA"),
    WORD("Stop BIOS on Error", "NA"),
    WORD("Delay during POST", "NA"),
    WORD("Spin Down Mode", "None"),
    WORD("Enable Ctrl-R", "No"),
    WORD("Enable Web BIOS", "No"),
    WORD("Enable PreBoot CLI", "No"),
    WORD("Enable BIOS", "No"),
    WORD("Max Drives to Spinup at One Time", "NA"),
    WORD("Maximum number of direct attached drives to spin up in 1 min", "NA"),
    WORD("Delay Among Spinup Groups (sec)", "NA"),
    WORD("Allow Boot with Preserved Cache", "Off"),
};

static const struct row high_availability[] = {
    WORD("Topology Type", "None"),
    WORD("Cluster Permitted", "No"),
    WORD("Cluster Active", "No"),
};

static const struct row defaults_rest[] = {
    WORD("Phy Polarity", "NA"),
    WORD("Phy PolaritySplit", "NA"),
    WORD("Cache When BBU Bad", "Off"),
    WORD("Cached IO", "Off"),
    WORD("VD PowerSave Policy", "NA"),
    WORD("Default spin down time (mins)", "NA"),
    WORD("Coercion Mode", "1MB"),
    WORD("ZCR Config", "NA"),
    WORD("Max Chained Enclosures", "NA"),
    WORD("Direct PD Mapping", "No"),
    WORD("Restore Hot Spare on Insertion", "No"),
    WORD("Expose Enclosure Devices", "No"),
    WORD("Maintain PD Fail History", "No"),
    WORD("Zero Based Enclosure Enumeration", "No"),
    WORD("Disable Puncturing", "NA"),
    WORD("EnableLDBBM", "No"),
    WORD("DisableHII", "NA"),
    WORD("Un-Certified Hard Disk Drives", "Allow"),
    WORD("SMART Mode", "NA"),
    WORD("Enable LED Header", "No"),
    WORD("LED Show Drive Activity", "No"),
    WORD("Dirty LED Shows Drive Activity", "No"),
    WORD("EnableCrashDump", "No"),
    WORD("Disable Online Controller Reset", "NA"),
    WORD("Treat Single span R1E as R10", "No"),
    WORD("Power Saving option", "NA"),
    WORD("TTY Log In Flash", "No"),
    WORD("Auto Enhanced Import", "No"),
    WORD("BreakMirror RAID Support", "NA"),
    WORD("Disable Join Mirror", "NA"),
    WORD("Enable Shield State", "No"),
    WORD("Time taken to detect CME", "NA"),
};

/* @kib as StorCLI writes a strip size: "64 KB", "1.000 MB". */
static void add_strip(struct rcl_node *section, const char *key, unsigned kib)
{
	if (kib < 1024)
		rcl_node_add_strf(section, key, "%u KB", kib);
	else
		rcl_node_add_strf(section, key, "%.3f MB", kib / 1024.0);
}

/* What "add vd" uses when no option says otherwise, and the rest of StorCLI's defaults. */
static void add_defaults(struct rcl_node *data, const struct view *v)
{
	struct rcl_node *section = rcl_node_add_object(data, "Defaults");

	add_strip(section, "Strip Size", v->caps->strip_default_kib);
	rcl_node_add_str(section, "Write Policy", rcl_write_policy_name(v->caps->default_write));
	rcl_node_add_str(section, "Read Policy", rcl_read_policy_name(v->caps->default_read));
	add_rows(section, v->caps, ROWS(defaults_rest));
}

/* "(2 drives)" for a fixed mirror width, "(2 or more drives)" for any. */
static size_t mirror_width(char *out, size_t size, unsigned drives, const char *per)
{
	if (drives)
		return (size_t)snprintf(out, size, "(%u drives%s)", drives, per);
	return (size_t)snprintf(out, size, "(2 or more drives%s)", per);
}

/*
 * StorCLI's "RAID Level Supported": "RAID0, RAID1(2 drives), ..., RAID60",
 * in StorCLI's order. In a fixed buffer (all eight levels fit): no
 * allocation left to fail.
 */
static void add_levels(struct rcl_node *section, const struct rcl_caps *caps)
{
	static const enum rcl_raid_level order[] = {RCL_RAID0,  RCL_RAID1,  RCL_RAID5,  RCL_RAID6,
	                                            RCL_RAID00, RCL_RAID10, RCL_RAID50, RCL_RAID60};
	char text[192] = "";
	size_t len = 0;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum rcl_raid_level l = order[i];

		if (!(caps->levels & (1u << l)))
			continue;
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s", len ? ", " : "",
		                        rcl_raid_level_name(l));
		if (l == RCL_RAID1)
			len +=
			    mirror_width(text + len, sizeof(text) - len, caps->mirror_drives, "");
		else if (l == RCL_RAID10)
			len += mirror_width(text + len, sizeof(text) - len, caps->mirror_drives,
			                    " per span");
	}
	rcl_node_add_str(section, "RAID Level Supported", text);
}

static void add_capabilities(struct rcl_node *data, const struct view *v)
{
	/* The library's VD rules refuse no mix of interfaces or media. */
	static const struct row mixes[] = {
	    WORD("Mix in Enclosure", "Allowed"),
	    WORD("Mix of SAS/SATA of HDD type in VD", "Allowed"),
	    WORD("Mix of SAS/SATA of SSD type in VD", "Allowed"),
	    WORD("Mix of SSD/HDD in VD", "Allowed"),
	    WORD("SAS Disable", "NA"),
	};
	static const struct row io[] = {
	    WORD("Max Parallel Commands", "NA"),
	    WORD("Max SGE Count", "NA"),
	    WORD("Max Data Transfer Size", "NA"),
	    WORD("Max Strips PerIO", "NA"),
	    ZERO("Max Configurable CacheCade Size(GB)"),
	    ZERO("Max Transportable DGs"),
	    WORD("Enable Snapdump", "No"),
	    WORD("Enable SCSI Unmap", "No"),
	    WORD("FDE Drive Mix Support", "No"),
	};
	const struct rcl_caps *caps = v->caps;
	struct rcl_node *section = rcl_node_add_object(data, "Capabilities");

	rcl_node_add_str(section, "Supported Drives", caps->drive_kinds);
	add_levels(section, caps);
	rcl_node_add_str(section, "Enable JBOD", v->info->jbod ? "Yes" : "No");
	add_rows(section, caps, ROWS(mixes));
	rcl_node_add_int(section, "Max Arms Per VD", caps->max_drives_per_span);
	rcl_node_add_int(section, "Max Spans Per VD", caps->max_spans);
	rcl_node_add_int(section, "Max Arrays", caps->max_dgs);
	rcl_node_add_int(section, "Max VD per array", caps->max_vds_per_dg);
	rcl_node_add_int(section, "Max Number of VDs", caps->max_vds);
	rcl_node_add_int(section, "Max Drives", v->info->max_drives);
	add_rows(section, caps, ROWS(io));
	add_strip(section, "Min Strip Size", caps->strip_min_kib);
	add_strip(section, "Max Strip Size", caps->strip_max_kib);
}

/* A scheduled task's next start as "show all" gives it: "NA" when none is waiting. */
static void add_next_launch(struct rcl_node *section, const char *key, int64_t at)
{
	char text[64];

	if (at)
		format_time(text, sizeof(text), (time_t)at);
	rcl_node_add_str(section, key, at ? text : "NA");
}

/*
 * StorCLI's "<n> hrs" for a task that runs by itself every @delay hours
 * (consumers test for "hrs"), else @off.
 */
static void add_reoccurrence(struct rcl_node *section, const char *key, bool scheduled,
                             unsigned delay, const char *off)
{
	if (scheduled)
		rcl_node_add_strf(section, key, "%u hrs", delay);
	else
		rcl_node_add_str(section, key, off);
}

static void add_scheduled_tasks(struct rcl_node *data, const struct view *v)
{
	static const struct row battery[] = {
	    WORD("Battery learn Reoccurrence", "NA"),
	    WORD("Next Battery Learn", "NA"),
	    WORD("OEMID", "NA"),
	};
	const struct rcl_ctrl_settings *s = v->settings;
	bool cc = s && v->caps->settings >> RCL_SETTING_CC_SCHEDULE & 1;
	bool pr = s && v->caps->settings >> RCL_SETTING_PR_SCHEDULE & 1;
	struct rcl_node *section = rcl_node_add_object(data, "Scheduled Tasks");

	add_reoccurrence(section, "Consistency Check Reoccurrence", cc && s->cc_mode != RCL_CC_OFF,
	                 cc ? s->cc.delay : 0, cc ? rcl_cc_mode_name(s->cc_mode) : "NA");
	add_next_launch(section, "Next Consistency check launch",
	                cc ? v->status->cc.next_start : 0);
	add_reoccurrence(section, "Patrol Read Reoccurrence", pr && s->pr_mode == RCL_PR_AUTO,
	                 pr ? s->pr.delay : 0, pr ? rcl_pr_mode_name(s->pr_mode) : "NA");
	add_next_launch(section, "Next Patrol Read launch", pr ? v->status->patrol.next_start : 0);
	rcl_node_add_str(section, "PR Unconfigured Areas",
	                 pr ? rcl_pr_uncfg_name(s->pr_uncfg) : "NA");
	add_rows(section, v->caps, ROWS(battery));
}

/* No options are licensed: raidcli's controllers have them all (and "show" counts 0 ASOs). */
static void add_software_options(struct rcl_node *data)
{
	struct rcl_node *row =
	    rcl_node_add_object(rcl_node_add_array(data, "Advanced Software Option"), NULL);

	/* StorCLI's keys start with a space. */
	rcl_node_add_str(row, "Adv S/W Opt", "None");
	rcl_node_add_str(row, " Time Remaining", "NA");
	rcl_node_add_str(row, " Mode", "-");
	rcl_node_add_str(data, "Safe ID", "NA");
}

/* @text, or @unknown where the backend reports nothing. */
static const char *or_word(const char *text, const char *unknown)
{
	return text[0] ? text : unknown;
}

/*
 * The cache backup module of @kind, as StorCLI's BBU_Info or Cachevault_Info
 * table lists it: what the backend reports of it (a card's firmware: its
 * model, state, temperature, date), the rest unknown, not invented.
 */
static void add_backup(struct rcl_node *data, enum rcl_cache_backup kind, const struct view *v)
{
	const struct rcl_backup_info *b = &v->info->backup;
	bool bbu = kind == RCL_BACKUP_BBU;
	struct rcl_node *row = rcl_node_add_object(
	    rcl_node_add_array(data, bbu ? "BBU_Info" : "Cachevault_Info"), NULL);
	bool present = v->caps->backup == kind;

	rcl_node_add_str(row, "Model", present ? or_word(b->model, "Unknown") : "Absent");
	rcl_node_add_str(row, "State", present ? or_word(b->state, "Unknown") : "Absent");
	if (bbu)
		rcl_node_add_str(row, "RetentionTime", "Unknown");
	/* StorCLI's "18C" form; unknown: as add_roc_temperature(). */
	if (present && b->temperature_c)
		rcl_node_add_strf(row, "Temp", "%uC", b->temperature_c);
	else
		rcl_node_add_str(row, "Temp", v->compat ? "0C" : "NA");
	rcl_node_add_str(row, "Mode", "-");
	rcl_node_add_str(row, "MfgDate", present ? or_word(b->mfg_date, "NA") : "NA");
}

/* One Property/Value row of @table, StorCLI's form of a module's readings: "@value @unit". */
static void add_reading(struct rcl_node *table, const char *prop, unsigned value, const char *unit)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_str(row, "Property", prop);
	rcl_node_add_strf(row, "Value", "%u%s", value, unit);
}

/* What "/cx/bbu show all" adds: the module's readings, where the backend reports them. */
static void add_backup_readings(struct rcl_node *data, const struct rcl_backup_info *b)
{
	struct rcl_node *table;

	if (!b->voltage_mv && !b->charge_pct)
		return;
	table = rcl_node_add_array(data, "BBU_Capacity_Info");
	add_reading(table, "Voltage", b->voltage_mv, " mV");
	add_reading(table, "Temperature", b->temperature_c, " C");
	add_reading(table, "Relative State of Charge", b->charge_pct, "%");
}

/* /cx/bbu and /cx/cv show [all|status]: cli_check_caps() let only a controller with the part in. */
enum rcl_status cmd_backup_show(struct cmd_ctx *c, struct rcl_error *err)
{
	struct view v = {
	    .info = rcl_ctrl_info(c->ctrl),
	    .caps = rcl_ctrl_caps(c->ctrl),
	    .compat = rcl_ctrl_storcli_compat(c->ctrl) == RCL_STORCLI_COMPAT_MEGARAID_SAS,
	};

	(void)err;
	add_backup(c->res->data,
	           c->args->cmd->part == RCL_PART_BBU ? RCL_BACKUP_BBU : RCL_BACKUP_CACHEVAULT, &v);
	if (!strcmp(c->args->cmd->verb, "show all"))
		add_backup_readings(c->res->data, &v.info->backup);
	return RCL_OK;
}

enum rcl_status cmd_backup_start_learn(struct cmd_ctx *c, struct rcl_error *err)
{
	enum rcl_status st = rcl_ctrl_backup_learn(c->ctrl, err);

	if (!st)
		rcl_result_describe(c->res, "Start Learn Succeeded.");
	return st;
}

enum rcl_status cmd_ctrl_show_all(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_node *data = c->res->data;
	struct rcl_ctrl_settings s;
	struct rcl_schedule_status status;
	struct view v = {
	    .info = rcl_ctrl_info(c->ctrl),
	    .caps = rcl_ctrl_caps(c->ctrl),
	    .settings = &s,
	    .status = &status,
	    .compat = rcl_ctrl_storcli_compat(c->ctrl) == RCL_STORCLI_COMPAT_MEGARAID_SAS,
	};
	enum rcl_status st = rcl_ctrl_settings_get(c->ctrl, &s, err);

	if (!st) {
		struct rcl_error why = {0};

		/*
		 * Rates without schedules (a MegaRAID card's): the status stays
		 * zero, and the schedules' rows follow the caps.
		 */
		st = rcl_ctrl_schedule_status(c->ctrl, &status, &why);
		if (st == RCL_UNSUPPORTED)
			st = RCL_OK;
		else if (st && err)
			*err = why;
	}
	/* A controller without task settings shows their rows as absent. */
	if (st == RCL_UNSUPPORTED)
		v.settings = NULL;
	else if (st)
		return st;
	add_basics(data, c, &v);
	add_version(data, &v);
	add_bus(rcl_node_add_object(data, "Bus"), v.info);
	rcl_node_add_str(rcl_node_add_object(data, "Pending Images in Flash"), "Image name",
	                 "No pending images");
	add_status(data, &v);
	add_rows(rcl_node_add_object(data, "Supported Adapter Operations"), v.caps,
	         ROWS(adapter_ops));
	add_rows(rcl_node_add_object(data, "Supported PD Operations"), v.caps, ROWS(pd_ops));
	add_rows(rcl_node_add_object(data, "Supported VD Operations"), v.caps, ROWS(vd_ops));
	add_software_options(data);
	add_hwcfg(data, &v);
	add_policies(data, &v);
	add_rows(rcl_node_add_object(data, "Boot"), v.caps, ROWS(boot));
	add_rows(rcl_node_add_object(data, "High Availability"), v.caps, ROWS(high_availability));
	add_defaults(data, &v);
	add_capabilities(data, &v);
	add_scheduled_tasks(data, &v);
	rcl_node_add_str(rcl_node_add_object(data, "Security Protocol properties"),
	                 "Security Protocol", "None");
	add_counts_and_lists(data, c->ctrl);
	/* StorCLI lists the module the card has; a CacheVault's absence when it has none. */
	add_backup(data, v.caps->backup == RCL_BACKUP_BBU ? RCL_BACKUP_BBU : RCL_BACKUP_CACHEVAULT,
	           &v);
	return RCL_OK;
}

enum rcl_status cmd_ctrl_set_compat(struct cmd_ctx *c, struct rcl_error *err)
{
	const char *mode = cmd_value(c->args, "storclicompat");
	enum rcl_storcli_compat compat;
	struct rcl_node *row;
	enum rcl_status st;

	if (!mode)
		return rcl_fail(
		    err, RCL_INVALID_COMMAND,
		    "give the mode: storclicompat=megaraid_sas or storclicompat=off, as in: "
		    "%s",
		    c->args->cmd->example);
	st = rcl_storcli_compat_parse(mode, &compat, err);
	if (!st)
		st = rcl_ctrl_set_storcli_compat(c->ctrl, compat, err);
	if (st)
		return st;
	/* StorCLI answers a controller "set" with the property's new value. */
	row = rcl_node_add_object(rcl_node_add_array(c->res->data, "Controller Properties"), NULL);
	rcl_node_add_str(row, "Ctrl_Prop", "StorCLI Compatibility");
	rcl_node_add_str(row, "Value", rcl_storcli_compat_name(compat));
	return RCL_OK;
}
