/** The provider of the XEP-0461 {@code <reply/>} element. */
package org.reconmuc.smack.reply.provider;
