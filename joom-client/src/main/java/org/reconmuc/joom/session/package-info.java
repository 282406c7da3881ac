/**
 * Joom's XMPP session (Smack 4.4.8 and reconmuc-smack): logs in (password or SASL ANONYMOUS),
 * joins one room, finds out whether it speaks ReConMUC (XEP-0030) and if so states the
 * requirements and updates them as the active topic changes; sends messages tagged with their
 * topic and XEP-0461 replies; turns what arrives (live, history, batches) into the model's
 * {@link org.reconmuc.joom.model.ChatMessage}s; counts what it receives; reconnects after a loss
 * with a fresh connection, re-joining and re-stating the requirements; and says what went wrong in
 * plain words ({@link org.reconmuc.joom.session.ErrorWords}).
 */
package org.reconmuc.joom.session;
