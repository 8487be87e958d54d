import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-G7COYLH5.js";import"./chunks/chunk-Q6DOAXLF.js";import{a as o}from"./chunks/chunk-EGVAGNOZ.js";import"./chunks/chunk-YPYMXEOL.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-BMREWSWA.js";import"./chunks/chunk-STMYT2RX.js";import"./chunks/chunk-SKUA5T56.js";import"./chunks/chunk-3EXRINAX.js";import"./chunks/chunk-AGOBB62V.js";import"./chunks/chunk-YS6ZMVJH.js";import"./chunks/chunk-XBPPTJU7.js";await o(i,t);
