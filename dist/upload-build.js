import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as o}from"./chunks/chunk-OJFU6LPV.js";import"./chunks/chunk-WZADPM4R.js";import"./chunks/chunk-UCXDIBA5.js";import{a as i}from"./chunks/chunk-GNGSRBK2.js";import"./chunks/chunk-WKJTVHTW.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-BMLWBR3I.js";import"./chunks/chunk-REMYMLTQ.js";import"./chunks/chunk-AGOBB62V.js";import"./chunks/chunk-XBPPTJU7.js";await i(o);
