/**
 * Real-time block lists for the rooms, as Prosody's and ejabberd's {@code mod_muc_rtbl}: the
 * service follows one publish-subscribe node (XEP-0060) on a service the operator names
 * ({@code --rtbl-service}, {@code --rtbl-node}, by default {@code muc_bans_sha256} as
 * <a href="https://xmppbl.org/">xmppbl.org</a> publishes it). Each item's id is the SHA-256 (hex)
 * of a bare JID, or of a domain, that is listed; a retraction unlists it.
 *
 * <p>{@link org.reconmuc.component.muc.rtbl.BlockListSubscription} fetches the node's items (at
 * every connection to the server), subscribes, and follows the notifications;
 * {@link org.reconmuc.component.muc.rtbl.BlockList} holds the hashes and answers whether a user
 * is listed ({@link org.reconmuc.component.muc.rtbl.JidHashes}). The rooms ask it before a join or
 * a message, and remove those already in when their hash comes.
 */
package org.reconmuc.component.muc.rtbl;
