import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-O55EKVMR.js";import"./chunks/chunk-B6BW7DEO.js";import{a as o}from"./chunks/chunk-A6DLFONT.js";import"./chunks/chunk-OET344O6.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-563GI2N3.js";import"./chunks/chunk-PCXE5LLD.js";import"./chunks/chunk-SKUA5T56.js";import"./chunks/chunk-3EXRINAX.js";import"./chunks/chunk-AGOBB62V.js";import"./chunks/chunk-XTI5FTON.js";import"./chunks/chunk-XBPPTJU7.js";await o(i,t);
