/*
 * cluster: resolve, hold, start and recover a command's server; see
 * cluster.h.
 */
#include "bench/pg/cluster.h"

#include <errno.h>
#include <stdio.h>

#include "bench/pg/lock.h"
#include "bench/pg/settings.h"

int cluster_take(const struct server_cfg *cfg, struct server *s, unsigned need,
		 const char *who, char *err, size_t errlen)
{
	int ret = server_resolve(cfg, s, err, errlen);

	/* it may start the server, put back a journal, evict the cluster's
	 * files: not while another command works on the cluster */
	if (ret == 0)
		ret = lock_hold_cluster(s, err, errlen);
	/* the journal before the start: a value it keeps from a killed
	 * command may be what stops the server from starting */
	if (ret == 0 && (need & CLUSTER_RECOVER) && settings_recover_running(who, s) < 0) {
		snprintf(err, errlen, "a settings journal could not be restored (said above)");
		ret = -EIO;
	}
	if (ret == 0 && (need & CLUSTER_DB))
		ret = server_ready_db(s, err, errlen);
	else if (ret == 0 && (need & CLUSTER_START) && !s->external)
		ret = server_start(s, err, errlen);
	return ret;
}
