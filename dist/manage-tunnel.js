import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-ZJULSXNI.js";import"./chunks/chunk-3JZVS627.js";import{a as o}from"./chunks/chunk-UPKAOJOQ.js";import"./chunks/chunk-V5R5UDM5.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-QCFIVB4B.js";import"./chunks/chunk-XL4UMCTZ.js";import"./chunks/chunk-SKUA5T56.js";import"./chunks/chunk-3EXRINAX.js";import"./chunks/chunk-AGOBB62V.js";import"./chunks/chunk-XTI5FTON.js";import"./chunks/chunk-XBPPTJU7.js";await o(i,t);
