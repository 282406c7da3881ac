/**
 * What a Smack connection's socket reads, seen as it reads it ({@code setSocketFactory}): the
 * bytes that crossed the wire, TLS and XEP-0138 compression included. Joom counts them for its
 * status bar; irc-replay's bots count them and find the stanzas in them.
 */
package org.reconmuc.smack.socket;
