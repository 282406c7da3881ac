/**
 * What an operator watches to see pressure coming: the outgoing queue, the stanzas waiting for
 * their rooms, bytes and stanzas out, rooms and occupants (standard and relaxed), batch flushes,
 * reconnections, and the JVM. Micrometer meters, scraped by Prometheus from a loopback HTTP
 * endpoint that is off unless {@code --metrics-port} is given.
 */
package org.reconmuc.component.metrics;
