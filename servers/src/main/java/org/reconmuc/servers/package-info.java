/**
 * Real XMPP servers for tests and load runs: Prosody and ejabberd from Debian's packages started
 * as local processes on free loopback ports from the {@code deploy/} templates, stopped by PID,
 * with real Smack clients logged in on their fast-login hosts.
 */
package org.reconmuc.servers;
