import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as o}from"./chunks/chunk-YB6QROLY.js";import"./chunks/chunk-WZADPM4R.js";import{a as i}from"./chunks/chunk-EEOWOA5Y.js";import"./chunks/chunk-H2UNLSJM.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-ZXP5UGOP.js";import"./chunks/chunk-IGNFH23K.js";import"./chunks/chunk-SKUA5T56.js";import"./chunks/chunk-3EXRINAX.js";import"./chunks/chunk-AGOBB62V.js";import"./chunks/chunk-XTI5FTON.js";import"./chunks/chunk-XBPPTJU7.js";await i(o);
