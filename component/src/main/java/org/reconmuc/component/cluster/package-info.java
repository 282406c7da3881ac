/**
 * Several instances of the service on one domain (issue "past one machine"; README, "Several
 * instances"), and who holds what among them: each instance holds several component connections,
 * the server keeps every stanza of a room on one of them (ejabberd's {@code domain_balancing},
 * {@code type: bare_destination}), and a room is served only under a lease in the shared store
 * ({@link org.reconmuc.component.store.LeaseStore}), fenced by its epoch
 * ({@link org.reconmuc.component.cluster.RoomLeasing}, {@link org.reconmuc.component.cluster.LeasedRooms}).
 * A dead instance's connections are adopted by a survivor, which opens as many new ones so that
 * the server's buckets it held are claimed again; on PostgreSQL an instance is dead only when its
 * advisory lock is free, never because it runs late ({@link org.reconmuc.component.cluster.ClusterNode}).
 * Between live instances a bucket is handed over (a clean stop, a new instance's share): the
 * taker waits at its handshake until the giver's connection is gone, since ejabberd gives a
 * connection only a bucket that is empty when it authenticates
 * ({@link org.reconmuc.component.cluster.BucketHandOvers}). This package decides; the store
 * ({@code store.RoomLeases}) only persists, and the rooms are reached through
 * {@link org.reconmuc.component.cluster.LeaseHost}.
 */
package org.reconmuc.component.cluster;
