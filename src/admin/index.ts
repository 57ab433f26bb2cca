/** The admin API under /admin: one guard, then one router per resource. */
import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { adminAuth } from './auth';

export function createAdminApp() {
  const admin = new Hono<AppEnv>();
  admin.use('*', adminAuth);
  return admin;
}
