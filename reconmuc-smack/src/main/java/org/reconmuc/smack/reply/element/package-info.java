/** The XEP-0461 {@code <reply xmlns='urn:xmpp:reply:0'/>} element. */
package org.reconmuc.smack.reply.element;
