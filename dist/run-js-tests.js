import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-X2ZHPTVI.js";import"./chunks/chunk-NWJSTDQY.js";import"./chunks/chunk-ZSEGA6K3.js";import"./chunks/chunk-Z3MQBOAB.js";import{a as o}from"./chunks/chunk-GNGSRBK2.js";import"./chunks/chunk-WKJTVHTW.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-BMLWBR3I.js";import"./chunks/chunk-REMYMLTQ.js";import"./chunks/chunk-AGOBB62V.js";import"./chunks/chunk-XBPPTJU7.js";await o(i,t);
