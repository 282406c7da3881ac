/** The service's settings: defaults, a properties file, environment variables and flags. */
package org.reconmuc.component.config;
